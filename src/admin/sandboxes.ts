import { ApiError, messages, problems, ValidationError } from '../errors';
import { runSliced } from '../http/slices';
import { asObject, checkKeys, queryOf } from '../input/fields';
import { validateHazards } from '../store/fixtures';
import type { Account } from '../store/world';
import { accountView } from './account-view';
import { hazardsView } from './accounts';
import { accountClockView, clockTarget } from './clock';
import { type AdminContext, type AdminHandler, endAccount } from './context';
import { checkPassed, deliverPassed } from './created-calls';
import { recordEnded, sendRecorded } from './recorded-calls';
import { created, ok } from './reply';
import { accountFromState } from './state';

/** A sandbox as the admin API shows it: an account (with its token), and where it came from. */
function sandboxView(ctx: AdminContext, a: Account) {
  const fork = ctx.world.forkOf(a.profile.sid);
  return {
    ...accountView(a),
    from: fork?.from ?? null,
    source: fork?.source ?? null,
    ...(fork?.run === undefined ? {} : { run: fork.run }),
    ...hazardsView(a),
  };
}

/**
 * `POST /__admin/sandboxes {"from": "<account sid>" | state, "name"?, "ttl_s"?}`: a fork of the
 * account (its records, its writes as they are now, its clock and traffic) with its own sid and
 * token, in O(1); or of the account a state export holds, made from the state's seed.
 */
export const createSandbox: AdminHandler = async (ctx, req) => {
  const body = asObject(req.body(), 'body');
  checkKeys(body, 'body', ['from', 'name', 'ttl_s', 'run', 'hazards']);
  const from = body['from'];
  if (typeof from !== 'string' && (typeof from !== 'object' || from === null || Array.isArray(from)))
    throw new ValidationError('body.from', problems.sandboxFrom);
  const name = body['name'];
  if (name !== undefined && (typeof name !== 'string' || name.trim() === '' || name.length > 200)) {
    throw new ValidationError('body.name', problems.friendlyName);
  }
  const ttl = body['ttl_s'];
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1 || ttl > 604_800)) {
    throw new ValidationError('body.ttl_s', problems.intRange(1, 604_800, ttl));
  }
  const run = body['run'] === undefined ? undefined : runId(body['run'], 'body.run');
  // Its own hazards (null: none), else its parent's.
  const hazards =
    body['hazards'] === undefined
      ? undefined
      : body['hazards'] === null
        ? null
        : validateHazards(body['hazards'], 'body.hazards');
  // The body is checked whole before the account is looked up: a bad body is a 400 either way.
  let sandbox: Account;
  if (typeof from === 'string') {
    const parent = ctx.world.account(from);
    if (parent === undefined) throw new ApiError(404, messages.noAccount(from));
    needsTraffic(parent, hazards);
    sandbox = ctx.world.forkAccount(parent, name, ctx.world, run, hazards);
  } else {
    const { home, account } = await runSliced(accountFromState(from, 'body.from'));
    needsTraffic(account, hazards);
    sandbox = ctx.world.forkAccount(account, name, home, run, hazards);
  }
  if (ttl !== undefined) expireLater(ctx, sandbox.profile.sid, ttl, req.takenHere);
  return created({ ...sandboxView(ctx, sandbox), ...(ttl === undefined ? {} : { ttl_s: ttl }) });
};

/** Hazards shape live traffic: a sandbox asks for them only of an account that has some. */
function needsTraffic(parent: Account, hazards: unknown): void {
  if (hazards !== undefined && hazards !== null && parent.spec.traffic === undefined)
    throw new ValidationError('body.hazards', problems.hazardsNeedTraffic);
}

/**
 * Ends the sandbox after `ttl` seconds of wall time, should a test runner never delete it. The
 * timer never keeps the process alive, and ends only that sandbox: not one made later with the
 * same sid after a reset. The end is a write of the log like any other, so every replica ends it
 * alike; only the process that took the request sets the timer (one entry, not one a replica).
 */
function expireLater(ctx: AdminContext, sid: string, ttl: number, takenHere: boolean): void {
  const serial = ctx.world.forkOf(sid)?.serial;
  if (serial === undefined || !takenHere) return;
  setTimeout(() => ctx.log.expire(sid, serial), ttl * 1000).unref();
}

/** A test run's id: what a runner tags its sandboxes with (1 to 200 visible characters). */
function runId(value: unknown, at: string): string {
  if (typeof value !== 'string' || !/^[\x21-\x7e]{1,200}$/.test(value)) throw new ValidationError(at, problems.runId);
  return value;
}

/**
 * `DELETE /__admin/sandboxes?run=ID`: ends every sandbox a test run made, whatever became of the
 * workers that made them; a run's global teardown calls it. The parameter is required: ending
 * every sandbox is what a forced reset is for.
 */
export const deleteRunSandboxes: AdminHandler = (ctx, req) => {
  const run = runId(queryOf(req.query, ['run']).get('run') ?? undefined, 'query.run');
  const ended = ctx.world
    .sandboxes()
    .filter((s) => s.run === run)
    .map((s) => s.sid);
  for (const sid of ended) endAccount(ctx, sid);
  return ok({ status: 'deleted', run, sids: ended });
};

/** `GET /__admin/sandboxes`: the live sandboxes, oldest first. */
export const listSandboxes: AdminHandler = (ctx) =>
  ok({
    sandboxes: ctx.world
      .sandboxes()
      .map((s) => ctx.world.account(s.sid))
      .filter((a): a is Account => a !== undefined)
      .map((a) => sandboxView(ctx, a)),
  });

/** The sandbox a path's `:sid` names, or a 404. */
function sandboxOf(ctx: AdminContext, sid: string): Account {
  const account = ctx.world.forkOf(sid) === undefined ? undefined : ctx.world.account(sid);
  if (account === undefined) throw new ApiError(404, messages.noSandbox(sid));
  return account;
}

/** `GET /__admin/sandboxes/{sid}/clock`: the sandbox's own clock. */
export const getSandboxClock: AdminHandler = (ctx, req) => {
  const sandbox = sandboxOf(ctx, req.params['sid'] ?? '');
  return ok(accountClockView(ctx.world, sandbox.context.nowMs));
};

/** `POST /__admin/sandboxes/{sid}/clock`: moves the sandbox's clock only, as /__admin/clock moves the world's. */
export const moveSandboxClock: AdminHandler = (ctx, req) => {
  const sandbox = sandboxOf(ctx, req.params['sid'] ?? '');
  const fromMs = sandbox.context.nowMs;
  const toMs = clockTarget(ctx.world, req.body(), sandbox.context.nowMs);
  checkPassed([sandbox], fromMs, toMs);
  ctx.world.setSandboxClock(sandbox, toMs);
  const recorded = recordEnded(ctx, [sandbox], fromMs, sandbox.context.nowMs);
  const reply = ok(accountClockView(ctx.world, sandbox.context.nowMs));
  const settle = req.takenHere
    ? sendRecorded(ctx, recorded, deliverPassed(ctx, [sandbox], fromMs, sandbox.context.nowMs))
    : undefined;
  return settle === undefined || ctx.callbacksInBackground ? reply : { ...reply, settle };
};

/** `DELETE /__admin/sandboxes/{sid}`: the sandbox goes; its parent is untouched. */
export const deleteSandbox: AdminHandler = (ctx, req) => {
  const sid = req.params['sid'] ?? '';
  if (ctx.world.forkOf(sid) === undefined) throw new ApiError(404, messages.noSandbox(sid));
  endAccount(ctx, sid);
  return ok({ status: 'deleted', sid });
};
