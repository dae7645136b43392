import { problems, ValidationError } from '../errors';
import { isoMillis } from '../format/dates';
import { asNonEmptyString, asObject, checkKeys, instantAt, queryOf } from '../input/fields';
import { validateAccount, validateFixtures } from '../store/fixtures';
import {
  type AdminHandler,
  accountOf,
  accountView,
  clearHarness,
  created,
  endAccount,
  ok,
  refuseIfSandboxes,
} from './context';

/** `POST /__admin/reset`: every account back to the seed, created ones gone, journal and faults cleared. */
export const resetAll: AdminHandler = (ctx, req) => {
  refuseIfSandboxes(ctx, req, 'A reset', 'POST /__admin/reset');
  ctx.world.reset();
  clearHarness(ctx);
  return ok({ status: 'reset', seed: ctx.world.seed, accounts: ctx.world.accounts().map(accountView) });
};

const SEED_FIELDS = ['seed', 'fixtures', 'clock'];

/** `POST /__admin/seed {"seed", "fixtures"?, "clock"?}`: the world built again; a bad body changes nothing. */
export const reseed: AdminHandler = (ctx, req) => {
  const { world } = ctx;
  const body = asObject(req.body(), 'body');
  checkKeys(body, 'body', SEED_FIELDS);
  const seed = asNonEmptyString(body['seed'] ?? world.seed, 'body.seed');
  const accounts =
    body['fixtures'] === undefined ? world.baseAccounts : validateFixtures(body['fixtures'], 'body.fixtures');
  const clockMs = body['clock'] === undefined ? world.clockMs : instantAt('body.clock', body['clock']);
  // The body is checked whole first: a bad body is a 400 whether or not sandboxes are live.
  refuseIfSandboxes(ctx, req, 'A new seed', 'POST /__admin/seed');
  world.reseed({ seed, clockMs, accounts });
  clearHarness(ctx);
  return ok({ status: 'seeded', seed: world.seed, accounts: world.accounts().map(accountView) });
};

/**
 * `GET /__admin/accounts[?detail=true]`: the accounts; with `detail`, each with its clock now and
 * its traffic, what the inspector's table shows (it asked for 50 whole state exports once).
 */
export const listAccounts: AdminHandler = (ctx, req) => {
  const detail = queryOf(req.query, ['detail']).get('detail');
  if (detail !== null && detail !== 'true' && detail !== 'false')
    throw new ValidationError('query.detail', problems.flag(detail));
  const list = ctx.world.accounts();
  if (detail !== 'true') return ok({ accounts: list.map(accountView) });
  return ok({
    accounts: list.map((a) => ({
      ...accountView(a),
      now: isoMillis(a.context.nowMs),
      traffic: a.spec.traffic === undefined ? null : { calls_per_hour: a.spec.traffic.callsPerHour },
    })),
  });
};

export const createAccount: AdminHandler = (ctx, req) =>
  created(accountView(ctx.world.createAccount(validateAccount(req.body(), 'body'))));

export const getAccount: AdminHandler = (ctx, req) => ok(accountView(accountOf(ctx, req)));

export const deleteAccount: AdminHandler = (ctx, req) => {
  const { sid } = accountOf(ctx, req).profile;
  endAccount(ctx, sid);
  return ok({ deleted: sid });
};

/** `POST /__admin/accounts/{sid}/reset`: the account's writes dropped. */
export const resetAccount: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  ctx.world.resetAccount(account);
  return ok({ status: 'reset', account: accountView(account) });
};
