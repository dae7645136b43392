import { ApiError, messages } from '../errors';
import { shownEndMs, shownStartSec, shownStatus } from '../generators/call-life';
import type { CallFacts } from '../generators/call-record';
import { collationFold } from '../generators/collation';
import { wildcard } from '../input/wildcard';
import { zonedMidnight } from '../input/zone';
import type { FilterPart, RecordFilter, TimeBound } from '../store/table-contracts';

/**
 * A SQL `LIKE` pattern as production's database matches it: `%` is any run of characters, `_`
 * any one character, everything else literal under its collation (case and accents aside:
 * `collationFold`), with trailing spaces significant, as LIKE keeps them. Matched in linear
 * steps, never by a backtracking RegExp.
 * @example likePattern('%1512600%')('+15126002188') // true
 * @example likePattern('no_answer')('NO_ANSWER') // true
 */
export function likePattern(pattern: string): (text: string) => boolean {
  const matches = wildcard(collationFold(pattern), '%', '_');
  return (text) => matches(collationFold(text));
}

/**
 * The day a StartTime or EndTime names, as its midnight in the server's zone (`zone`, UTC by
 * default; `days` later for `days` > 0), in ms. Production parses with a
 * lenient `SimpleDateFormat("yyyy-MM-dd")`: what follows the date is ignored
 * (`2013-08-23 14:30:07.82` is 23 August), and fields past their range roll over (`2025-02-30`
 * is 2 March, `2025-05-00` 30 April, `2024-17-05` 5 May 2025). A value that does not start with
 * three numbers joined by `-` is a 400, as production's ParseException. A day past what a date
 * can hold is beyond every record (+Infinity).
 * @example parseDay('StartTime', '2013-08-23 14:30:07.820000000') // 1377216000000
 * @example parseDay('StartTime', '2025-02-30') // Date.UTC(2025, 2, 2)
 */
export function parseDay(name: string, value: string, zone = 'UTC', days = 0): number {
  const m = /^(\d+)-(\d+)-(\d+)/.exec(value);
  if (m === null) throw new ApiError(400, messages.badDay(name, value));
  const day = new Date(0);
  // setUTCFullYear, not Date.UTC: years 0-99 are years, not 1900-1999.
  const ms = day.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return Number.isNaN(ms) ? Number.POSITIVE_INFINITY : zonedMidnight(zone, ms);
}

/** What a call filter reads: a call as it stands, through the rules of its life. */
export type FilterableCall = CallFacts;

/** Fields a recording filter reads. */
export interface FilterableRecording {
  callSid: string;
  createdSec: number;
}

/**
 * One filter parameter: from its value (400 when bad) to a test of a record; `reads`, where
 * given, names every field of the record the test reads (a scan may then make only those).
 */
export type FilterDef<R> = ((value: string, name: string, zone: string) => (record: R) => boolean) & {
  reads?: readonly (keyof R & string)[];
};

/** Each filter parameter of a list. */
export type FilterDefs<R> = Readonly<Record<string, FilterDef<R>>>;

/** A filter definition that says which fields its test reads. */
function reading<R>(reads: readonly (keyof R & string)[], def: FilterDef<R>): FilterDef<R> {
  return Object.assign(def, { reads });
}

/** Distinct texts a test remembers its answer for: every party an account's calls show fits. */
const MEMO_TEXTS = 65_536;

/**
 * A test of texts that remembers its answers: a filter over ten million calls sees a few
 * thousand distinct From, To and Status texts, so matching each once, not once a call, is what
 * keeps a first filtered page of a huge account fast. Past MEMO_TEXTS it matches as it comes.
 * @example remembered((t) => t.endsWith('8'))('+15126002188') // true
 */
export function remembered(test: (text: string) => boolean): (text: string) => boolean {
  const answers = new Map<string, boolean>();
  return (text) => {
    const known = answers.get(text);
    if (known !== undefined) return known;
    const answer = test(text);
    if (answers.size < MEMO_TEXTS) answers.set(text, answer);
    return answer;
  };
}

/**
 * A LIKE pattern on one text field (see `likePattern`): `Status=COMPLETED` keeps `completed`,
 * `Status=no_answer` keeps `NO_ANSWER` and `no-answer`. A NULL field (undefined here: a row's
 * NULL column) matches nothing, as NULL LIKE anything is not true.
 */
const like =
  <R>(field: (r: R) => string | null | undefined, prefix = '', suffix = '') =>
  (value: string) => {
    const matches = remembered(likePattern(`${prefix}${value}${suffix}`));
    return (r: R) => {
      const text = field(r);
      return text !== null && text !== undefined && matches(text);
    };
  };

/** A test, and the time bound it is where it is one (see `TimeBound`): the store may then answer from the bound. */
type BoundTest<R> = ((r: R) => boolean) & { bound?: TimeBound };

/** The test, saying it is the bound `time` at `ms` where `time` is given. */
function bounded<R>(test: (r: R) => boolean, time: TimeBound['time'] | undefined, ms: number): BoundTest<R> {
  return time === undefined ? test : Object.assign(test, { bound: { time, ms } });
}

/** On or after the named day's midnight (in the server's zone). */
const fromDay =
  <R>(sec: (r: R) => number, time?: 'startFrom') =>
  (value: string, name: string, zone: string) => {
    const day = parseDay(name, value, zone);
    return bounded((r: R) => sec(r) * 1000 >= day, time, day);
  };

/**
 * By the end of the named day: by the next midnight, the whole day included (`DATE_ADD(d,
 * INTERVAL 1 DAY)`: a calendar day, 23 or 25 hours across a daylight saving change).
 */
const untilDayEnd =
  <R>(ms: (r: R) => number, time?: 'endBy') =>
  (value: string, name: string, zone: string) => {
    const limit = parseDay(name, value, zone, 1);
    return bounded((r: R) => ms(r) <= limit, time, limit);
  };

/**
 * Production's call filters (`CallDetailRecordFilter`): To and From match `'%' + value`
 * (a suffix, or more with the client's own `%`), Status matches as `LIKE` in any case (the
 * production database's collation: see `likeAnyCase`), StartTime keeps
 * calls whose start_time is on or after the day, EndTime those ending by the next midnight (the whole day
 * included). The generated calls have no parent and no conference, so ParentCallSid and
 * ConferenceSid, with any value, give an empty list.
 */
export const CALL_FILTERS: FilterDefs<FilterableCall> = {
  To: reading(
    ['to'],
    like((c) => c.to, '%'),
  ),
  From: reading(
    ['from'],
    like((c) => c.from, '%'),
  ),
  // A seeded call is never live nor swept: its direction and status are all the text reads.
  Status: reading(['direction', 'status', 'live', 'swept', 'row'], like(shownStatus)),
  // Only production's own rows have a parent or a conference: no generated call matches.
  ParentCallSid: reading(
    ['row'],
    like((c) => c.row?.parent_call_sid),
  ),
  ConferenceSid: reading(
    ['row'],
    like((c) => c.row?.conference_sid),
  ),
  // start_time is the answer once answered; a call with no end_time (live, or an outbound one
  // that ended busy, no-answer, failed or not-found) is NULL to `end_time <= d`, so never kept.
  StartTime: fromDay(shownStartSec, 'startFrom'),
  EndTime: untilDayEnd((c) => shownEndMs(c) ?? Number.POSITIVE_INFINITY, 'endBy'),
};

/** Production's recording filters: CallSid as `LIKE`; StartTime and EndTime on `date_created`. */
export const RECORDING_FILTERS: FilterDefs<FilterableRecording> = {
  CallSid: like((r) => r.callSid),
  StartTime: fromDay((r) => r.createdSec),
  EndTime: untilDayEnd((r) => r.createdSec * 1000),
};

/** Fields a notification filter reads. */
export interface FilterableNotification {
  createdSec: number;
  errorCode: number;
  requestUrl: string;
  messageText: string;
}

/**
 * Production's notification filters (`NotificationFilter` and its mapper): ErrorCode and
 * RequestUrl as `LIKE` on the value as sent (the code's decimal text), MessageText as a
 * substring (`LIKE '%' || value || '%'`), StartTime and EndTime on `date_created`.
 */
export const NOTIFICATION_FILTERS: FilterDefs<FilterableNotification> = {
  ErrorCode: like((n) => String(n.errorCode)),
  RequestUrl: like((n) => n.requestUrl),
  MessageText: like((n) => n.messageText, '%', '%'),
  StartTime: fromDay((n) => n.createdSec),
  EndTime: untilDayEnd((n) => n.createdSec * 1000),
};

/**
 * The filter the given parameters make (each value checked now; days in the server's `zone`),
 * or null when none is given.
 * @example buildFilter(CALL_FILTERS, new Map([['From', '3021097%']])) // { key: 'From=3021097%', test: … }
 */
export function buildFilter<R>(
  defs: FilterDefs<R>,
  values: ReadonlyMap<string, string>,
  zone = 'UTC',
): RecordFilter<R> | null {
  if (values.size === 0) return null;
  const parts: FilterPart<R>[] = [];
  for (const [name, value] of values) {
    const def = Object.hasOwn(defs, name) ? defs[name] : undefined;
    if (def === undefined) continue;
    const test: BoundTest<R> = def(value, name, zone);
    const part: FilterPart<R> = { test };
    if (def.reads !== undefined) part.reads = def.reads;
    if (test.bound !== undefined) part.bound = test.bound;
    parts.push(part);
  }
  const key = [...values]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return { key, test: (r: R) => parts.every((p) => p.test(r)), parts };
}
