import { ApiError, messages } from '../errors';
import { FixtureError, validateAccount } from '../store/fixtures';
import type { World } from '../store/world';
import type { AccountStore } from '../store/account';
import { callFromInput } from './call-input';
import { asObject, checkKeys } from './fields';
import { recordingFromInput } from './recording-input';

/** One named state of a states file: an account to set up, and records to insert into it. */
export interface StateDef {
  description?: string;
  /** Default values of the `{{name}}` placeholders; a request's `params` override them. */
  params: Record<string, unknown>;
  account: unknown;
  calls?: unknown[];
  recordings?: unknown[];
}

/** A states file that cannot be used: the message names the file and the field. */
export class StatesError extends Error {}

/**
 * Reads a states file: `{"states": {"name": {"params": {...}, "account": {...}, "calls": [...], "recordings": [...]}}}`.
 * Values may hold `{{param}}` placeholders; the records are checked when a state is set up.
 */
export function parseStates(text: string, source: string): Map<string, StateDef> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new StatesError(`${source}: not valid JSON (${(err as Error).message})`);
  }
  const fail = (field: string, problem: string): never => {
    throw new StatesError(`${source}: ${field}: ${problem}`);
  };
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObject(data) || !isObject(data['states'])) return fail('states', 'must be an object of named states');
  const states = new Map<string, StateDef>();
  for (const [name, raw] of Object.entries(data['states'])) {
    const at = `states[${JSON.stringify(name)}]`;
    if (!isObject(raw)) fail(at, 'must be an object');
    const def = raw as Record<string, unknown>;
    for (const key of Object.keys(def)) {
      if (!['description', 'params', 'account', 'calls', 'recordings'].includes(key)) fail(`${at}.${key}`, 'unknown field');
    }
    if (def['params'] !== undefined && !isObject(def['params'])) fail(`${at}.params`, 'must be an object');
    if (!isObject(def['account'])) fail(`${at}.account`, 'must be an object');
    for (const list of ['calls', 'recordings']) if (def[list] !== undefined && !Array.isArray(def[list])) fail(`${at}.${list}`, 'must be an array');
    states.set(name, {
      params: (def['params'] as Record<string, unknown> | undefined) ?? {},
      account: def['account'],
      ...(typeof def['description'] === 'string' ? { description: def['description'] } : {}),
      ...(def['calls'] === undefined ? {} : { calls: def['calls'] as unknown[] }),
      ...(def['recordings'] === undefined ? {} : { recordings: def['recordings'] as unknown[] }),
    });
  }
  return states;
}

/** Replaces `{{name}}` placeholders: a whole-string placeholder takes the param's value and type. */
function fill(value: unknown, params: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{(\w+)\}\}$/.exec(value);
    if (whole !== null) return params[whole[1] as string];
    return value.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(params[name]));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, params));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, params)]));
  }
  return value;
}

/**
 * Pact's provider-state call: `{"state": "...", "params": {...}, "action": "setup" | "teardown"}`.
 * Setup replaces the state's account (deleting one with the same sid first) and inserts its
 * records; teardown deletes the account. An unknown state, or params it does not declare, is a 400.
 */
export function applyProviderState(world: World, states: ReadonlyMap<string, StateDef>, raw: unknown): { state: string; action: string; accounts: AccountStore[] } {
  const body = asObject(raw, 'body');
  checkKeys(body, 'body', ['state', 'params', 'action']);
  const name = body['state'];
  if (typeof name !== 'string') throw new ApiError(400, messages.badField('body.state', 'must be a string'));
  const def = states.get(name);
  if (def === undefined) throw new ApiError(400, messages.unknownState(name, [...states.keys()]));
  const action = body['action'] ?? 'setup';
  if (action !== 'setup' && action !== 'teardown') throw new ApiError(400, messages.badField('body.action', 'must be setup or teardown'));
  const given = body['params'] ?? {};
  const extra = asObject(given, 'body.params');
  for (const key of Object.keys(extra)) {
    if (!(key in def.params)) throw new ApiError(400, messages.unknownField(`body.params.${key}`, Object.keys(def.params)));
  }
  const params = { ...def.params, ...extra };
  let spec;
  try {
    spec = validateAccount(fill(def.account, params), `state ${JSON.stringify(name)}: account`);
  } catch (err) {
    if (err instanceof FixtureError) throw new ApiError(400, err.message);
    throw err;
  }
  if (spec.sid !== undefined) world.deleteAccount(spec.sid);
  if (action === 'teardown') {
    return { state: name, action, accounts: [] };
  }
  let account: AccountStore;
  try {
    account = world.createAccount(spec);
  } catch (err) {
    if (err instanceof FixtureError) throw new ApiError(400, err.message);
    throw err;
  }
  try {
    (fill(def.calls ?? [], params) as unknown[]).forEach((c, i) => account.calls.insert(callFromInput(account, c, `state.calls[${i}]`)));
    (fill(def.recordings ?? [], params) as unknown[]).forEach((r, i) => account.recordings.insert(recordingFromInput(account, r, `state.recordings[${i}]`)));
  } catch (err) {
    // No half-applied state: the account goes again.
    world.deleteAccount(account.profile.sid);
    throw err;
  }
  world.touch();
  return { state: name, action, accounts: [account] };
}
