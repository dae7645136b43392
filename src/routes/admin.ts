import { Router } from 'express';
import { routes } from '../format/uris';
import type { World } from '../store/world';
import { VERSION } from '../version';
import { methodNotAllowed } from './error-handler';

/** The accounts as the admin API shows them: with tokens, so tests can authenticate. */
function accountList(world: World) {
  return world.accounts().map((a) => ({
    sid: a.profile.sid,
    token: a.profile.token,
    friendly_name: a.profile.friendlyName,
    calls: a.calls.count,
    recordings: a.recordings.count,
  }));
}

/** `/__admin`: WireMock's convention for a mock's control API. No auth, as a test harness. */
export function adminRouter(world: World, startedAt: () => number): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get(routes.adminHealth, (_req, res) => {
    res.json({
      status: 'ok',
      version: VERSION,
      seed: world.seed,
      accounts: world.accounts().length,
      uptime_s: Math.round(startedAt() * 10) / 10,
    });
  });
  router.all(routes.adminHealth, methodNotAllowed('GET, HEAD'));

  router.get(routes.adminAccounts, (_req, res) => {
    res.json({ accounts: accountList(world) });
  });
  router.all(routes.adminAccounts, methodNotAllowed('GET, HEAD'));

  router.post(routes.adminReset, (_req, res) => {
    world.reset();
    res.json({ status: 'reset', seed: world.seed, accounts: accountList(world) });
  });
  router.all(routes.adminReset, methodNotAllowed('POST'));
  return router;
}
