import { ApiError, messages, problems, ValidationError } from '../errors';
import { asList, asObject, checkKeys, isObject, parseJson, readerOf } from '../input/fields';
import { validateAccount } from '../store/fixtures';
import type { Account, World } from '../store/world';
import { callFromInput } from './call-input';
import { type AdminHandler, accountView, ok } from './context';
import { recordingFromInput } from './recording-input';

/** One named state of a states file: an account to set up, and records to insert into it. */
export interface StateDef {
  description?: string;
  /** Default values of the `{{name}}` placeholders; a request's `params` override them. */
  params: Record<string, unknown>;
  /** The placeholders the state uses, in order of first use: each has a default in `params`. */
  placeholders: string[];
  account: unknown;
  calls?: unknown[];
  recordings?: unknown[];
}

const STATE_FIELDS = ['description', 'params', 'account', 'calls', 'recordings'];

/**
 * Reads a states file: `{"states": {"name": {"params": {...}, "account": {...}, "calls": [...], "recordings": [...]}}}`.
 * Values may hold `{{param}}` placeholders; the records are checked when a state is set up.
 */
export function parseStates(text: string | Uint8Array, source: string): Map<string, StateDef> {
  const data = parseJson(text, source);
  if (!isObject(data) || !isObject(data['states']))
    throw new ValidationError(`${source}: states`, problems.namedStates);
  const states = new Map<string, StateDef>();
  for (const [name, raw] of Object.entries(data['states'])) {
    const at = `${source}: states[${JSON.stringify(name)}]`;
    const r = readerOf(raw, at, STATE_FIELDS);
    const params = r.object('params')?.body ?? {};
    asObject(r.body['account'], `${at}.account`);
    // A placeholder with no default would be filled with "undefined" when the state is set up,
    // long after start-up: say so now, as for any other error in the file.
    const placeholders = placeholdersOf([
      r.body['description'],
      r.body['account'],
      r.body['calls'],
      r.body['recordings'],
    ]);
    const missing = placeholders.filter((p) => !Object.hasOwn(params, p));
    if (missing.length > 0) throw new ValidationError(`${at}.params`, problems.placeholderDefaults(missing));
    const def: StateDef = { params, placeholders, account: r.body['account'] };
    if (typeof r.body['description'] === 'string') def.description = r.body['description'];
    if (r.has('calls')) def.calls = asList(r.body['calls'], `${at}.calls`);
    if (r.has('recordings')) def.recordings = asList(r.body['recordings'], `${at}.recordings`);
    states.set(name, def);
  }
  return states;
}

/** The `{{name}}` placeholders in a value, each once, in order of first use. */
function placeholdersOf(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') {
    for (const m of value.matchAll(/\{\{(\w+)\}\}/g)) if (!found.includes(m[1] as string)) found.push(m[1] as string);
  } else if (Array.isArray(value)) {
    for (const v of value) placeholdersOf(v, found);
  } else if (isObject(value)) {
    for (const v of Object.values(value)) placeholdersOf(v, found);
  }
  return found;
}

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
