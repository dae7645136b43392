import { ApiError, messages, problems, ValidationError } from '../errors';
import { isoMillis } from '../format/dates';
import { asNonEmptyString, asObject, checkKeys, instantAt, queryOf, readerOf } from '../input/fields';
import { RowSids, validateAccount, validateFixtures } from '../store/fixtures';
import type { Account } from '../store/world';
import { accountView } from './account-view';
import { type AdminHandler, accountOf, clearHarness, endAccount, refuseIfSandboxes } from './context';
import { created, ok } from './reply';

/** `POST /__admin/reset`: every account back to the seed, created ones gone, journal and faults cleared. */
export const resetAll: AdminHandler = (ctx, req) => {
  refuseIfSandboxes(ctx, req, 'A reset', 'POST /__admin/reset');
  ctx.world.reset();
  clearHarness(ctx);
  return ok({ status: 'reset', seed: ctx.world.seed, accounts: ctx.world.accounts().map(accountView) });
};

const SEED_FIELDS = ['seed', 'fixtures', 'clock', 'start'];

/**
 * `POST /__admin/seed {"seed", "fixtures"?, "clock"?}`: the world built again; a bad body changes
 * nothing. `"fixtures": "start"` takes the accounts the emulator started with (a reset keeps the
 * fixtures of the last seed), and `{"start": true}` alone the seed, clock and accounts it started
 * with.
 */
export const reseed: AdminHandler = (ctx, req) => {
  const { world } = ctx;
  const body = asObject(req.body(), 'body');
  checkKeys(body, 'body', SEED_FIELDS);
  const start = body['start'];
  if (start !== undefined && typeof start !== 'boolean') throw new ValidationError('body.start', problems.boolean);
  if (start === true && Object.keys(body).length > 1) throw new ValidationError('body.start', problems.startAlone);
  const from = start === true ? world.startSpec : { seed: body['seed'], clockMs: undefined, accounts: undefined };
  const seed = asNonEmptyString(from.seed ?? world.seed, 'body.seed');
  const fixtures = body['fixtures'];
  const accounts =
    from.accounts ??
    (fixtures === undefined
      ? world.baseAccounts
      : fixtures === 'start'
        ? world.startSpec.accounts
        : validateFixtures(fixtures, 'body.fixtures'));
  const clockMs =
    from.clockMs ?? (body['clock'] === undefined ? world.clockMs : instantAt('body.clock', body['clock']));
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
  const view =
    detail !== 'true'
      ? accountView
      : (a: Account) => ({
          ...accountView(a),
          now: isoMillis(a.context.nowMs),
          traffic: a.spec.traffic === undefined ? null : { calls_per_hour: a.spec.traffic.callsPerHour },
          ...hazardsView(a),
          parent: a.spec.parent ?? null,
          role: a.spec.role ?? 'Developer',
        });
  // A slice of accounts a chunk: after a clock move each account's counts are worked out again
  // (arrivals, their recordings), and 20,000 of them in one turn held every other answer 1.8 s.
  return { status: 200, chunks: accountChunks(list, view) };
};

/** Accounts listed per chunk of `GET /__admin/accounts`. */
const ACCOUNTS_PER_CHUNK = 100;

function* accountChunks(list: readonly Account[], view: (a: Account) => unknown): Generator<string> {
  yield '{"accounts":[';
  for (let i = 0; i < list.length; i += ACCOUNTS_PER_CHUNK) {
    const part = list.slice(i, i + ACCOUNTS_PER_CHUNK).map((a) => JSON.stringify(view(a)));
    yield (i === 0 ? '' : ',') + part.join(',');
  }
  yield ']}';
}

/**
 * An account's hazards as the admin API shows them: what it asked for, the nodes that drew
 * (their InstanceIds and clock skews), and the restarts so far.
 * @example hazardsView(a) // { hazards: { commit_lag_s: 120, instances: [{ instance_id: 'ID…', skew_ms: -2113 }] }, restarts: [] }
 */
export function hazardsView(a: Account) {
  const h = a.spec.hazards;
  return {
    hazards:
      h === undefined
        ? null
        : {
            commit_lag_s: h.commitLagS,
            instances: a.nodes.map((n) => ({ instance_id: n.instanceId, skew_ms: n.skewMs })),
          },
    restarts: a.sweeps.map((s) => ({ instance_id: s.instanceId, at: isoMillis(s.atMs) })),
  };
}

/**
 * `POST /__admin/accounts/{sid}/restart {"instance_id"?: "ID…"}`: a node of the account restarts
 * at its clock now, as production's start-up does: the calls of that InstanceId (every one's,
 * when none is named) that are queued, ringing or in progress become `completed`, their
 * status alone. Answers how many calls it swept.
 */
export const restartAccount: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  const r = readerOf(req.hasBody ? req.body() : {}, 'body', ['instance_id']);
  const instanceId = r.string('instance_id', /^ID[0-9a-f]{32}$/, 'an InstanceId (ID and 32 hex digits)') ?? null;
  const before = account.liveCallCount(instanceId);
  ctx.world.restartAccount(account, instanceId);
  return ok({
    status: 'restarted',
    account: account.profile.sid,
    instance_id: instanceId,
    at: isoMillis(account.context.nowMs),
    swept: before,
    ...hazardsView(account),
  });
};

export const createAccount: AdminHandler = (ctx, req) => {
  const spec = validateAccount(req.body(), 'body');
  if (spec.verbatim !== undefined) {
    // Production's rows: a sid is its table's key across every account (a sandbox's rows are its parent's).
    const sids = new RowSids();
    for (const a of ctx.world.accounts()) {
      if (a.spec.verbatim !== undefined && ctx.world.forkOf(a.profile.sid) === undefined)
        sids.add(a.spec.verbatim, `account ${a.profile.sid}`);
    }
    sids.add(spec.verbatim, 'body');
  }
  return created(accountView(ctx.world.createAccount(spec)));
};

export const getAccount: AdminHandler = (ctx, req) => ok(accountView(accountOf(ctx, req)));

export const deleteAccount: AdminHandler = (ctx, req) => {
  const { sid } = accountOf(ctx, req).profile;
  const children = ctx.world.children(sid).map((c) => c.profile.sid);
  if (children.length > 0) throw new ApiError(409, messages.hasSubAccounts(sid, children));
  endAccount(ctx, sid);
  return ok({ deleted: sid });
};

/** `POST /__admin/accounts/{sid}/reset`: the account's writes dropped. */
export const resetAccount: AdminHandler = (ctx, req) => {
  const account = accountOf(ctx, req);
  ctx.world.resetAccount(account);
  return ok({ status: 'reset', account: accountView(account) });
};
