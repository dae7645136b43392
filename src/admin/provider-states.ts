import { ApiError, messages, problems, ValidationError } from '../errors';
import { asList, asObject, checkKeys, isObject } from '../input/fields';
import { validateAccount } from '../store/fixtures';
import type { Account, World } from '../store/world';
import { accountView } from './account-view';
import { callFromInput } from './call-input';
import type { AdminHandler } from './context';
import { recordingFromInput } from './recording-input';
import { ok } from './reply';
import type { StateDef } from './state-defs';

/** Replaces `{{name}}` placeholders: a whole-string placeholder takes the param's value and type. */
function fill(value: unknown, params: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{(\w+)\}\}$/.exec(value)?.[1];
    if (whole !== undefined) return params[whole];
    // Inside a longer string a value is written as JSON writes it (never String() of an object,
    // whose own toString may be anything a request sent).
    return value.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => {
      const v = params[name];
      return typeof v === 'string' ? v : (JSON.stringify(v) ?? 'null');
    });
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, params));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, params)]));
  return value;
}

/**
 * Pact's provider-state call: `{"state": "...", "params": {...}, "action": "setup" | "teardown"}`.
 * Setup replaces the state's account (deleting one with the same sid first) and inserts its
 * records; teardown deletes the account. An unknown state, or params it does not declare, is a 400.
 */
export function applyProviderState(
  world: World,
  states: ReadonlyMap<string, StateDef>,
  raw: unknown,
): { state: string; action: string; accounts: Account[] } {
  const body = asObject(raw, 'body');
  checkKeys(body, 'body', ['state', 'params', 'action']);
  const name = body['state'];
  if (typeof name !== 'string') throw new ValidationError('body.state', problems.aString);
  const def = states.get(name);
  if (def === undefined) throw new ApiError(400, messages.unknownState(name, [...states.keys()]));
  const action = body['action'] ?? 'setup';
  if (action !== 'setup' && action !== 'teardown') throw new ValidationError('body.action', problems.setupOrTeardown);
  const given = asObject(body['params'] ?? {}, 'body.params');
  for (const key of Object.keys(given)) {
    if (!Object.hasOwn(def.params, key))
      throw new ValidationError(`body.params.${key}`, problems.notPlaceholder(name, def.placeholders));
  }
  const params = { ...def.params, ...given };
  const spec = validateAccount(fill(def.account, params), `state ${JSON.stringify(name)}: account`);
  if (spec.sid !== undefined) world.deleteAccount(spec.sid);
  if (action === 'teardown') return { state: name, action, accounts: [] };
  const account = world.createAccount(spec);
  try {
    // One at a time: a recording may name a call the state inserts.
    for (const [i, c] of asList(fill(def.calls, params), 'state.calls').entries()) {
      world.insertCalls(account, [callFromInput(account, c, `state.calls[${i}]`)]);
    }
    for (const [i, r] of asList(fill(def.recordings, params), 'state.recordings').entries()) {
      world.insertRecordings(account, [recordingFromInput(account, r, `state.recordings[${i}]`)]);
    }
  } catch (err) {
    // No half-applied state: the account goes again.
    world.deleteAccount(account.profile.sid);
    throw err;
  }
  return { state: name, action, accounts: [account] };
}

export const listStates: AdminHandler = (ctx) =>
  ok({
    states: [...ctx.states].map(([name, def]) => ({ name, description: def.description ?? null, params: def.params })),
  });

export const setState: AdminHandler = (ctx, req) => {
  const done = applyProviderState(ctx.world, ctx.states, req.body());
  return ok({ state: done.state, action: done.action, accounts: done.accounts.map(accountView) });
};
