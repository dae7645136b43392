import { ApiError, messages } from '../errors';
import type { RecordFilter } from '../store/table';

/** The filter parameters of each list, as production reads them. */
export const CALL_FILTERS = ['To', 'From', 'Status', 'ParentCallSid', 'ConferenceSid', 'StartTime', 'EndTime'] as const;
export const RECORDING_FILTERS = ['CallSid', 'StartTime', 'EndTime'] as const;

const DAY_MS = 86_400_000;

/**
 * A SQL `LIKE` pattern as a RegExp: `%` is any run of characters, `_` any one character,
 * everything else literal and case-sensitive (production hands the value to the database as is).
 * @example likePattern('%1512600%').test('+15126002188') // true
 */
export function likePattern(pattern: string): RegExp {
  let re = '^';
  for (const ch of pattern) {
    re += ch === '%' ? '[\\s\\S]*' : ch === '_' ? '[\\s\\S]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`${re}$`, 'u');
}

/**
 * The day a StartTime or EndTime names, as the UTC midnight in ms. Production parses
 * `yyyy-MM-dd` and ignores what follows (`2013-08-23 14:30:07.82` is 23 August); a value that
 * does not start with a valid date is a 400.
 * @example parseDay('StartTime', '2013-08-23 14:30:07.820000000') // 1377216000000
 */
export function parseDay(name: string, value: string): number {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})/.exec(value);
  const bad = () => new ApiError(400, messages.badDay(name, value));
  if (m === null) throw bad();
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  if (mo < 1 || mo > 12 || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) throw bad();
  return ms;
}

/** Fields a call filter reads, in store terms. */
interface FilterableCall {
  to: string;
  from: string;
  status: string;
  startSec: number;
  endMs: number;
}

/**
 * Production's call filters (`CallDetailRecordFilter`): To and From match `'%' + value`
 * (a suffix, or more with the client's own `%`), Status matches as `LIKE`, StartTime keeps
 * calls starting on or after the day, EndTime those ending by the next midnight (the whole day
 * included). The generated calls have no parent and no conference, so ParentCallSid and
 * ConferenceSid, with any value, give an empty list.
 * @example callFilter(new Map([['From', '3021097%']])) // { key: 'From=3021097%', test: … }
 */
export function callFilter(values: ReadonlyMap<string, string>): RecordFilter<FilterableCall> | null {
  if (values.size === 0) return null;
  const tests: ((c: FilterableCall) => boolean)[] = [];
  const to = values.get('To');
  if (to !== undefined)
    tests.push(
      (
        (re) => (c) =>
          re.test(c.to)
      )(likePattern(`%${to}`)),
    );
  const from = values.get('From');
  if (from !== undefined)
    tests.push(
      (
        (re) => (c) =>
          re.test(c.from)
      )(likePattern(`%${from}`)),
    );
  const status = values.get('Status');
  if (status !== undefined)
    tests.push(
      (
        (re) => (c) =>
          re.test(c.status)
      )(likePattern(status)),
    );
  if (values.has('ParentCallSid') || values.has('ConferenceSid')) tests.push(() => false);
  const start = values.get('StartTime');
  if (start !== undefined)
    tests.push(
      (
        (day) => (c) =>
          c.startSec * 1000 >= day
      )(parseDay('StartTime', start)),
    );
  const end = values.get('EndTime');
  if (end !== undefined)
    tests.push(
      (
        (limit) => (c) =>
          c.endMs <= limit
      )(parseDay('EndTime', end) + DAY_MS),
    );
  return { key: keyOf(values), test: (c) => tests.every((t) => t(c)) };
}

/** Production's recording filters: CallSid as `LIKE`; StartTime and EndTime on `date_created`. */
export function recordingFilter(
  values: ReadonlyMap<string, string>,
): RecordFilter<{ callSid: string; createdSec: number }> | null {
  if (values.size === 0) return null;
  const tests: ((r: { callSid: string; createdSec: number }) => boolean)[] = [];
  const callSid = values.get('CallSid');
  if (callSid !== undefined)
    tests.push(
      (
        (re) => (r) =>
          re.test(r.callSid)
      )(likePattern(callSid)),
    );
  const start = values.get('StartTime');
  if (start !== undefined)
    tests.push(
      (
        (day) => (r) =>
          r.createdSec * 1000 >= day
      )(parseDay('StartTime', start)),
    );
  const end = values.get('EndTime');
  if (end !== undefined)
    tests.push(
      (
        (limit) => (r) =>
          r.createdSec * 1000 <= limit
      )(parseDay('EndTime', end) + DAY_MS),
    );
  return { key: keyOf(values), test: (r) => tests.every((t) => t(r)) };
}

function keyOf(values: ReadonlyMap<string, string>): string {
  return [...values]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}
