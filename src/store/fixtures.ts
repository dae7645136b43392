import type { AccountSpec } from '../generators/account';
import { recordingCapacity } from '../generators/recording-layout';

/** The most calls one account may have: orders are Uint32Array permutations, 4 bytes a call. */
export const MAX_CALLS = 50_000_000;

/** A fixture file that cannot be used; the message names the file and the field. */
export class FixtureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixtureError';
  }
}

const ACCOUNT_FIELDS = ['friendly_name', 'calls', 'recordings', 'token', 'sid'] as const;
const SID_PATTERN = /^AC[0-9a-f]{32}$/;
// A Basic user name cannot hold ':' (it ends the user name), and header text must be visible ASCII.
const TOKEN_PATTERN = /^[\x21-\x39\x3b-\x7e]{1,128}$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates fixture data (already parsed from JSON) of the form
 * `{"accounts":[{"friendly_name":"…","calls":448,"recordings":160,"token":"optional","sid":"optional"}]}`.
 * `source` names the file in messages.
 */
export function validateFixtures(data: unknown, source: string): AccountSpec[] {
  const fail = (field: string, problem: string): never => {
    throw new FixtureError(`${source}: ${field}: ${problem}`);
  };
  if (!isRecord(data)) return fail('(top level)', 'must be an object with an "accounts" array');
  for (const key of Object.keys(data)) if (key !== 'accounts') fail(key, 'unknown field (expected only "accounts")');
  const accounts = data['accounts'];
  if (!Array.isArray(accounts)) return fail('accounts', 'must be an array');
  const specs: AccountSpec[] = [];
  const sids = new Map<string, number>();
  const tokens = new Map<string, number>();
  accounts.forEach((raw: unknown, i) => {
    const spec = validateAccount(raw, `${source}: accounts[${i}]`);
    for (const [key, seen] of [['token', tokens], ['sid', sids]] as const) {
      const value = spec[key];
      if (value === undefined) continue;
      const dup = seen.get(value);
      if (dup !== undefined) fail(`accounts[${i}].${key}`, `the same ${key} as accounts[${dup}]`);
      seen.set(value, i);
    }
    specs.push(spec);
  });
  return specs;
}

/** One account of a fixture (or of an admin request); `at` prefixes messages, e.g. `f.json: accounts[2]`. */
export function validateAccount(raw: unknown, at: string): AccountSpec {
  const fail = (field: string, problem: string): never => {
    throw new FixtureError(`${at}.${field}: ${problem}`);
  };
  if (!isRecord(raw)) throw new FixtureError(`${at}: must be an object`);
  for (const key of Object.keys(raw)) {
    if (!(ACCOUNT_FIELDS as readonly string[]).includes(key)) fail(key, `unknown field (expected ${ACCOUNT_FIELDS.join(', ')})`);
  }
  const name = raw['friendly_name'];
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200) {
    fail('friendly_name', 'must be a non-empty string of at most 200 characters');
  }
  const count = (field: 'calls' | 'recordings', max: number, why: string): number => {
    const v = raw[field] ?? 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max) {
      fail(field, `must be an integer from 0 to ${max}${why}, got ${JSON.stringify(v)}`);
    }
    return v as number;
  };
  const calls = count('calls', MAX_CALLS, '');
  const cap = recordingCapacity(calls);
  const recordings = count('recordings', cap, ` (${calls} calls hold at most ${cap} recordings: 6 per 8 calls)`);
  const spec: AccountSpec = { friendlyName: name as string, calls, recordings };
  const token = raw['token'];
  if (token !== undefined) {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) fail('token', 'must be 1 to 128 visible ASCII characters without ":"');
    spec.token = token as string;
  }
  const sid = raw['sid'];
  if (sid !== undefined) {
    if (typeof sid !== 'string' || !SID_PATTERN.test(sid)) fail('sid', 'must be "AC" and 32 lower-case hex digits');
    spec.sid = sid as string;
  }
  return spec;
}

/** An account spec in fixture form, as `validateAccount` reads it back. */
export function accountAsFixture(spec: AccountSpec): Record<string, unknown> {
  return {
    friendly_name: spec.friendlyName,
    calls: spec.calls,
    recordings: spec.recordings,
    ...(spec.token === undefined ? {} : { token: spec.token }),
    ...(spec.sid === undefined ? {} : { sid: spec.sid }),
  };
}

/** Parses and validates fixture JSON text. */
export function parseFixtures(text: string, source: string): AccountSpec[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new FixtureError(`${source}: not valid JSON (${(err as Error).message})`);
  }
  return validateFixtures(data, source);
}
