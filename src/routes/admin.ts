import type { Express } from 'express';
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
export function mountAdmin(app: Express, world: World, startedAt: () => number): void {
  app.get(routes.adminHealth, (_req, res) => {
    res.json({
      status: 'ok',
      version: VERSION,
      seed: world.seed,
      accounts: world.accounts().length,
      uptime_s: Math.round(startedAt() * 10) / 10,
    });
  });
  app.all(routes.adminHealth, methodNotAllowed('GET, HEAD'));

  app.get(routes.adminAccounts, (_req, res) => {
    res.json({ accounts: accountList(world) });
  });
  app.all(routes.adminAccounts, methodNotAllowed('GET, HEAD'));

  app.post(routes.adminReset, (_req, res) => {
    world.reset();
    res.json({ status: 'reset', seed: world.seed, accounts: accountList(world) });
  });
  app.all(routes.adminReset, methodNotAllowed('POST'));
}
