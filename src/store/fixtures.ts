import { problems, ValidationError } from '../errors';
import type {
  CallbackFaults,
  HazardSpec,
  InboundCallbacks,
  NumberCallback,
  OutcomeSpec,
} from '../generators/account-spec';
import { ACCOUNT_ROLES, type AccountSpec, verbatimSpec } from '../generators/account-spec';
import { CALL_STATUSES, type CallStatus } from '../generators/call-record';
import { MAX_COMMIT_LAG_S, MAX_INSTANCES, MAX_SKEW_S } from '../generators/hazards';
import { notificationCapacity } from '../generators/notification';
import { recordingCapacity } from '../generators/recording-layout';
import type { TableName, TableRows, VerbatimAccount } from '../generators/rows';
import { asList, isObject, parseJson, type Reader, readerOf } from '../input/fields';
import { readJsonRow, rowAsJson } from '../input/restcomm-tables';

/** The most calls one account may have: orders are Uint32Array permutations, 4 bytes a call. */
export const MAX_CALLS = 50_000_000;

const ACCOUNT_FIELDS = [
  'friendly_name',
  'calls',
  'recordings',
  'notifications',
  'token',
  'sid',
  'traffic',
  'data_of',
  'hazards',
  'parent',
  'role',
  'outcomes',
  'outcomes_by_to',
  'callback_faults',
  'status_callback',
  'number_status_callbacks',
] as const;
const SID_PATTERN = /^AC[0-9a-f]{32}$/;
// A Basic user name cannot hold ':' (it ends the user name), and header text must be visible ASCII.
const TOKEN_PATTERN = /^[\x21-\x39\x3b-\x7e]{1,128}$/;

/**
 * Validates fixture data (already parsed from JSON) of the form
 * `{"accounts":[{"friendly_name":"…","calls":448,"recordings":160,"token":"optional","sid":"optional"}]}`.
 * `source` names the file in messages.
 */
export function validateFixtures(data: unknown, source: string, asStored = false): AccountSpec[] {
  if (!isObject(data)) throw new ValidationError(`${source}: (top level)`, problems.fixturesTop);
  for (const key of Object.keys(data)) {
    if (key !== 'accounts') throw new ValidationError(`${source}: ${key}`, problems.unknownField(['accounts']));
  }
  const accounts = data['accounts'];
  if (!Array.isArray(accounts)) throw new ValidationError(`${source}: accounts`, problems.array);
  const seen = { token: new Map<string, number>(), sid: new Map<string, number>() };
  const rows = new RowSids();
  return accounts.map((raw: unknown, i) => {
    const spec = validateAccount(raw, `${source}: accounts[${i}]`, asStored);
    if (spec.verbatim !== undefined) rows.add(spec.verbatim, `${source}: accounts[${i}]`);
    for (const key of ['token', 'sid'] as const) {
      const value = spec[key];
      // Production stores the MD5 of a password: two accounts of one password share a token.
      if (value === undefined || (key === 'token' && spec.verbatim !== undefined)) continue;
      const dup = seen[key].get(value);
      if (dup !== undefined)
        throw new ValidationError(`${source}: accounts[${i}].${key}`, problems.sameAs(key, `accounts[${dup}]`));
      seen[key].set(value, i);
    }
    return spec;
  });
}

/** One account of a fixture (or of an admin request); `at` prefixes messages, e.g. `f.json: accounts[2]`. */
export function validateAccount(raw: unknown, at: string, asStored = false): AccountSpec {
  if (isObject(raw) && raw['restcomm_accounts'] !== undefined) return validateVerbatim(raw, at, asStored);
  const r: Reader = readerOf(raw, at, ACCOUNT_FIELDS);
  const name = r.body['friendly_name'];
  if (typeof name !== 'string' || name.trim() === '' || name.length > 200)
    r.fail('friendly_name', problems.friendlyName);
  const count = (field: 'calls' | 'recordings' | 'notifications', max: number, why: string): number => {
    const v = r.body[field] ?? 0;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > max)
      r.fail(field, problems.countRange(max, why, v));
    return v;
  };
  const calls = count('calls', MAX_CALLS, '');
  const cap = recordingCapacity(calls);
  const recordings = count('recordings', cap, problems.recordingCapacity(calls, cap));
  const spec: AccountSpec = { friendlyName: name, calls, recordings };
  // Absent: one notification per eight calls (see generators/notification.ts).
  if (r.body['notifications'] !== undefined) {
    const most = notificationCapacity(calls);
    spec.notifications = count('notifications', most, problems.notificationCapacity(calls, most));
  }
  const token = r.body['token'];
  if (token !== undefined) {
    if (typeof token !== 'string' || !TOKEN_PATTERN.test(token)) r.fail('token', problems.token);
    spec.token = token;
  }
  const sid = r.body['sid'];
  if (sid !== undefined) {
    if (typeof sid !== 'string' || !SID_PATTERN.test(sid)) r.fail('sid', problems.accountSid);
    spec.sid = sid;
  }
  const dataOf = r.body['data_of'];
  if (dataOf !== undefined) {
    if (typeof dataOf !== 'string' || !SID_PATTERN.test(dataOf)) r.fail('data_of', problems.accountSid);
    spec.dataOf = dataOf;
  }
  const traffic = r.body['traffic'];
  if (traffic !== undefined && traffic !== null) {
    const t: Reader = readerOf(traffic, `${at}.traffic`, ['calls_per_hour']);
    const rate = t.body['calls_per_hour'];
    if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0 || rate > 3600)
      t.fail('calls_per_hour', problems.trafficRate);
    spec.traffic = { callsPerHour: rate };
  }
  const parent = r.body['parent'];
  if (parent !== undefined && parent !== null) {
    if (typeof parent !== 'string' || !SID_PATTERN.test(parent)) r.fail('parent', problems.accountSid);
    spec.parent = parent;
  }
  const role = r.body['role'];
  if (role !== undefined) {
    if (!ACCOUNT_ROLES.includes(role as never)) r.fail('role', problems.oneOf(ACCOUNT_ROLES, role));
    if (role !== 'Developer') spec.role = role as AccountSpec['role'] & string;
  }
  const hazards = r.body['hazards'];
  if (hazards !== undefined && hazards !== null) {
    spec.hazards = validateHazards(hazards, `${at}.hazards`);
    if (spec.traffic === undefined) r.fail('hazards', problems.hazardsNeedTraffic);
  }
  const outcomes = validateOutcomes(r.body['outcomes'], r.body['outcomes_by_to'], at);
  if (outcomes !== undefined) spec.outcomes = outcomes;
  const inbound = validateInboundCallbacks(r, at);
  if (inbound !== undefined) {
    if (spec.traffic === undefined)
      r.fail(r.has('status_callback') ? 'status_callback' : 'number_status_callbacks', problems.callbacksNeedTraffic);
    spec.inboundCallbacks = inbound;
  }
  const faults = r.body['callback_faults'];
  if (faults !== undefined && faults !== null)
    spec.callbackFaults = validateCallbackFaults(faults, `${at}.callback_faults`);
  return spec;
}

/**
 * `status_callback` (every number's) and `number_status_callbacks` (some numbers' own):
 * `{"url": "http://…", "method": "POST"}`, the method POST when absent.
 */
function validateInboundCallbacks(r: Reader, at: string): InboundCallbacks | undefined {
  const one = (raw: unknown, where: string): NumberCallback => {
    const c: Reader = readerOf(raw, where, ['url', 'method']);
    const url = c.body['url'];
    if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url)) c.fail('url', problems.callbackUrl);
    const method = c.body['method'] ?? 'POST';
    if (typeof method !== 'string' || !['GET', 'POST'].includes(method.toUpperCase()))
      c.fail('method', problems.oneOf(['GET', 'POST'], method));
    return { url: url as string, method: method as string };
  };
  const out: InboundCallbacks = {};
  const all = r.body['status_callback'];
  if (all !== undefined && all !== null) out.all = one(all, `${at}.status_callback`);
  const byNumber = r.body['number_status_callbacks'];
  if (byNumber !== undefined && byNumber !== null) {
    if (!isObject(byNumber)) throw new ValidationError(`${at}.number_status_callbacks`, problems.object);
    const read: Record<string, NumberCallback> = {};
    for (const [number, raw] of Object.entries(byNumber))
      read[number] = one(raw, `${at}.number_status_callbacks.${number}`);
    out.byNumber = read;
  }
  return out.all === undefined && out.byNumber === undefined ? undefined : out;
}

/** `callback_faults`: probabilities from 0 to 1, and a delay's most, in ms (at most a day). */
function validateCallbackFaults(raw: unknown, at: string): CallbackFaults {
  const r: Reader = readerOf(raw, at, ['drop', 'duplicate', 'reorder', 'delay']);
  const share = (reader: Reader, field: string): number | undefined => {
    const v = reader.body[field];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) reader.fail(field, problems.probability);
    return v as number;
  };
  const faults: CallbackFaults = {};
  for (const field of ['drop', 'duplicate', 'reorder'] as const) {
    const v = share(r, field);
    if (v !== undefined) faults[field] = v;
  }
  if (r.body['delay'] !== undefined) {
    const d: Reader = readerOf(r.body['delay'], `${at}.delay`, ['probability', 'max_ms']);
    const probability = share(d, 'probability') ?? 1;
    const maxMs = d.body['max_ms'];
    if (typeof maxMs !== 'number' || !Number.isInteger(maxMs) || maxMs < 0 || maxMs > 86_400_000)
      d.fail('max_ms', problems.intRange(0, 86_400_000, maxMs));
    faults.delay = { probability, max_ms: maxMs as number };
  }
  return faults;
}

/**
 * How an account's created calls end: `outcomes` weights by final status
 * (`{"completed": 0.8, "busy": 0.2}`, at least one above 0) and `outcomes_by_to`, a status for
 * some To numbers (`{"+15550001111": "busy"}`), which wins over the weights.
 */
function validateOutcomes(weights: unknown, byTo: unknown, at: string): OutcomeSpec | undefined {
  const spec: OutcomeSpec = {};
  if (weights !== undefined && weights !== null) {
    const w: Reader = readerOf(weights, `${at}.outcomes`, CALL_STATUSES);
    const read: Partial<Record<CallStatus, number>> = {};
    for (const status of CALL_STATUSES) {
      const v = w.body[status];
      if (v === undefined) continue;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) w.fail(status, problems.outcomeWeight);
      read[status] = v;
    }
    if (!Object.values(read).some((v) => v > 0)) throw new ValidationError(`${at}.outcomes`, problems.outcomeWeights);
    spec.weights = read;
  }
  if (byTo !== undefined && byTo !== null) {
    if (!isObject(byTo)) throw new ValidationError(`${at}.outcomes_by_to`, problems.object);
    const read: Record<string, CallStatus> = {};
    for (const [to, status] of Object.entries(byTo)) {
      if (!(CALL_STATUSES as readonly unknown[]).includes(status))
        throw new ValidationError(`${at}.outcomes_by_to.${to}`, problems.oneOf(CALL_STATUSES, status));
      read[to] = status as CallStatus;
    }
    spec.byTo = read;
  }
  return spec.weights === undefined && spec.byTo === undefined ? undefined : spec;
}

/**
 * Production's hazards for an account's live traffic:
 * `{"commit_lag_s": 120, "instances": {"count": 3, "max_skew_s": 30}}`, each part optional.
 */
export function validateHazards(raw: unknown, at: string): HazardSpec {
  const r: Reader = readerOf(raw, at, ['commit_lag_s', 'instances']);
  const commitLagS = r.integer('commit_lag_s', 0, MAX_COMMIT_LAG_S) ?? 0;
  const instances = r.body['instances'];
  if (instances === undefined || instances === null) return { commitLagS, instances: null };
  const n: Reader = readerOf(instances, `${at}.instances`, ['count', 'max_skew_s']);
  const count = n.integer('count', 1, MAX_INSTANCES);
  if (count === undefined) n.fail('count', problems.intRange(1, MAX_INSTANCES, undefined));
  return { commitLagS, instances: { count, maxSkewS: n.integer('max_skew_s', 0, MAX_SKEW_S) ?? 0 } };
}

/** Hazards as fixtures and state exports write them, as `validateHazards` reads them back. */
export function hazardsAsFixture(h: HazardSpec): Record<string, unknown> {
  return {
    commit_lag_s: h.commitLagS,
    ...(h.instances === null ? {} : { instances: { count: h.instances.count, max_skew_s: h.instances.maxSkewS } }),
  };
}

/** The lists of an account of production's data, by table, in fixture form. */
const VERBATIM_LISTS = {
  restcomm_call_detail_records: 'calls',
  restcomm_recordings: 'recordings',
  restcomm_notifications: 'notifications',
} as const satisfies Partial<Record<TableName, keyof VerbatimAccount>>;
const VERBATIM_FIELDS = ['restcomm_accounts', ...Object.keys(VERBATIM_LISTS)];

/**
 * An account of production's data in fixture form: its row under `restcomm_accounts`, the rows
 * of its lists under their tables' names, every row as a dump holds it (see `readJsonRow`:
 * against production's schema, or `asStored` for a state's rows, checked when they came in).
 * Each row must be the account's, and each list is kept by sid ascending, so the order rows come
 * in changes nothing.
 * @example validateVerbatim({ restcomm_accounts: { sid: 'ACae…', … }, restcomm_call_detail_records: [{ sid: 'CA01…', … }] }, 'f.json: accounts[0]')
 */
export function validateVerbatim(raw: unknown, at: string, asStored = false): AccountSpec {
  const r: Reader = readerOf(raw, at, VERBATIM_FIELDS);
  const account = readJsonRow('restcomm_accounts', r.body['restcomm_accounts'], `${at}.restcomm_accounts`, asStored);
  const list = <T extends keyof typeof VERBATIM_LISTS>(table: T): TableRows[T][] => {
    const given = r.body[table] === undefined ? [] : asList(r.body[table], `${at}.${table}`);
    const rows = given.map((item, k) => {
      const row = readJsonRow(table, item, `${at}.${table}[${k}]`, asStored);
      if (row.account_sid !== account.sid)
        throw new ValidationError(
          `${at}.${table}[${k}].account_sid`,
          problems.rowAccount(account.sid, row.account_sid),
        );
      return row;
    });
    return rows.sort((a, b) => (a.sid < b.sid ? -1 : a.sid > b.sid ? 1 : 0));
  };
  return verbatimSpec({
    account,
    calls: list('restcomm_call_detail_records'),
    recordings: list('restcomm_recordings'),
    notifications: list('restcomm_notifications'),
  });
}

/**
 * The sids of production's rows seen so far, by table: a sid is each table's PRIMARY KEY, across
 * every account, as in production's database.
 */
export class RowSids {
  private readonly seen = new Map<string, string>();

  /** Adds an account's rows; a ValidationError at `at` when a sid is taken. */
  add(v: VerbatimAccount, at: string): void {
    const take = (table: TableName, sid: string, where: string) => {
      const key = `${table} ${sid}`;
      const earlier = this.seen.get(key);
      if (earlier !== undefined) throw new ValidationError(where, problems.rowTaken(table, sid, earlier));
      this.seen.set(key, where);
    };
    take('restcomm_accounts', v.account.sid, `${at}.restcomm_accounts`);
    for (const [table, list] of Object.entries(VERBATIM_LISTS) as [keyof typeof VERBATIM_LISTS, 'calls'][]) {
      for (const [k, row] of (v[list] as readonly { sid: string }[]).entries())
        take(table, row.sid, `${at}.${table}[${k}]`);
    }
  }
}

/** An account of production's data in fixture form, as `validateVerbatim` reads it back. */
export function verbatimAsFixture(v: VerbatimAccount): Record<string, unknown> {
  return {
    restcomm_accounts: rowAsJson('restcomm_accounts', v.account),
    restcomm_call_detail_records: v.calls.map((row) => rowAsJson('restcomm_call_detail_records', row)),
    restcomm_recordings: v.recordings.map((row) => rowAsJson('restcomm_recordings', row)),
    restcomm_notifications: v.notifications.map((row) => rowAsJson('restcomm_notifications', row)),
  };
}

/** An account spec in fixture form, as `validateAccount` reads it back. */
export function accountAsFixture(spec: AccountSpec): Record<string, unknown> {
  if (spec.verbatim !== undefined) return verbatimAsFixture(spec.verbatim);
  return {
    friendly_name: spec.friendlyName,
    calls: spec.calls,
    recordings: spec.recordings,
    ...(spec.notifications === undefined ? {} : { notifications: spec.notifications }),
    ...(spec.token === undefined ? {} : { token: spec.token }),
    ...(spec.sid === undefined ? {} : { sid: spec.sid }),
    ...(spec.traffic === undefined ? {} : { traffic: { calls_per_hour: spec.traffic.callsPerHour } }),
    ...(spec.dataOf === undefined ? {} : { data_of: spec.dataOf }),
    ...(spec.hazards === undefined ? {} : { hazards: hazardsAsFixture(spec.hazards) }),
    ...(spec.parent === undefined ? {} : { parent: spec.parent }),
    ...(spec.role === undefined ? {} : { role: spec.role }),
    ...(spec.outcomes?.weights === undefined ? {} : { outcomes: spec.outcomes.weights }),
    ...(spec.outcomes?.byTo === undefined ? {} : { outcomes_by_to: spec.outcomes.byTo }),
    ...(spec.callbackFaults === undefined ? {} : { callback_faults: spec.callbackFaults }),
    ...(spec.inboundCallbacks?.all === undefined ? {} : { status_callback: spec.inboundCallbacks.all }),
    ...(spec.inboundCallbacks?.byNumber === undefined
      ? {}
      : { number_status_callbacks: spec.inboundCallbacks.byNumber }),
  };
}

/** Parses and validates fixture JSON text. */
export function parseFixtures(text: string | Uint8Array, source: string): AccountSpec[] {
  return validateFixtures(parseJson(text, source), source);
}
