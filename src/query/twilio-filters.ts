import { ApiError, messages } from '../errors';
import { TWILIO_CALL_STATUSES, twilioCallStatus, twilioSid } from '../format/twilio/fields';
import { shownEndMs, shownStartSec } from '../generators/call-life';
import type { FilterableRecording } from './filters';
import { type FilterableCall, type FilterDef, type FilterDefs, remembered } from './filters';

/** Twilio's code for a parameter it cannot read. */
export const TWILIO_BAD_PARAMETER = 20001;

/** A time a Twilio filter names: a whole UTC day, or an instant (ms). */
type TwilioTime = { day: number } | { instant: number };

const DAY_MS = 86_400_000;

/**
 * A time as the helper libraries send one: a date (`2009-07-06`, a whole UTC day: Twilio's
 * days are UTC), an ISO instant with `Z`, RFC 3339 with an offset, or twilio-java's zoneless
 * `yyyy-MM-dd'T'HH:mm:ss`, read as UTC. Anything else is a 400.
 * @example parseTwilioTime('StartTime', '2009-07-06') // { day: 1246838400000 }
 * @example parseTwilioTime('StartTime>', '2009-07-06T20:30:00+02:00') // { instant: 1246905000000 }
 */
export function parseTwilioTime(name: string, value: string): TwilioTime {
  const bad = () => new ApiError(400, messages.twilioDate(name, value), {}, TWILIO_BAD_PARAMETER);
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (day !== null) {
    const ms = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (new Date(ms).toISOString().slice(0, 10) !== value) throw bad();
    return { day: ms };
  }
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (m === null) throw bad();
  const zone = m[6] === undefined || m[6] === 'Z' ? 'Z' : m[6].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const fraction = (m[5] ?? '').slice(0, 4);
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${fraction}${zone}`);
  if (Number.isNaN(ms) || Number(m[2]) > 23 || Number(m[3]) > 59 || Number(m[4]) > 59) throw bad();
  return { instant: ms };
}

/**
 * A time filter in its three forms, on a record's time in ms (NaN where the record has none,
 * which no form keeps). Twilio sends `StartTime<=2009-07-06` as the parameter `StartTime<` and
 * the value: the `=` is the query's own, so both inequalities include their bound.
 * - `Name=…` the whole UTC day, of a date or of an instant's date: the libraries send a date as
 *   its midnight instant (twilio-python's `start_time=date(2009, 7, 6)` is `2009-07-06T00:00:00Z`).
 * - `Name<`: on or before: by the end of the day, or at or before the instant.
 * - `Name>`: on or after: from the day's midnight, or at or after the instant.
 * @example timeFilter((c) => c.ms, '=')('2009-07-06', 'StartTime')({ ms: Date.UTC(2009, 6, 6, 12) }) // true
 */
function timeFilter<R>(ms: (r: R) => number, form: '=' | '<' | '>'): FilterDef<R> {
  return (value, name) => {
    const t = parseTwilioTime(name, value);
    if (form === '=') {
      const day = 'day' in t ? t.day : t.instant - (((t.instant % DAY_MS) + DAY_MS) % DAY_MS);
      return (r) => ms(r) >= day && ms(r) < day + DAY_MS;
    }
    const second = 'day' in t ? 0 : t.instant - (((t.instant % 1000) + 1000) % 1000);
    if (form === '<') return 'day' in t ? (r) => ms(r) < t.day + DAY_MS : (r) => ms(r) <= second + 999;
    return 'day' in t ? (r) => ms(r) >= t.day : (r) => ms(r) >= second;
  };
}

/** Start, end and creation of each form: `Name`, `Name<` and `Name>`. */
function timeFilters<R>(name: string, ms: (r: R) => number): Record<string, FilterDef<R>> {
  return { [name]: timeFilter(ms, '='), [`${name}<`]: timeFilter(ms, '<'), [`${name}>`]: timeFilter(ms, '>') };
}

/** An exact match on one text, remembered per text (see `remembered`). */
function exact<R>(field: (r: R) => string | null | undefined, reads?: readonly (keyof R & string)[]): FilterDef<R> {
  const def: FilterDef<R> = (value) => {
    const same = remembered((text) => text === value);
    return (r) => {
      const text = field(r);
      return text !== null && text !== undefined && same(text);
    };
  };
  return reads === undefined ? def : Object.assign(def, { reads });
}

/** A call's Twilio start (ms): none while queued, the answer once answered (see format/twilio/call.ts). */
function startMs(c: FilterableCall): number {
  return twilioCallStatus(c) === 'queued' ? Number.NaN : shownStartSec(c) * 1000;
}

/** A call's Twilio end (ms): a completed call's alone. */
function endMs(c: FilterableCall): number {
  if (twilioCallStatus(c) !== 'completed') return Number.NaN;
  const end = shownEndMs(c) ?? c.endMs;
  return end - (end % 1000);
}

/**
 * The calls list's filters as Twilio reads them: `To`, `From` and `ParentCallSid` exact,
 * `Status` one of Twilio's statuses, `StartTime` and `EndTime` in their three forms.
 */
export const TWILIO_CALL_FILTERS: FilterDefs<FilterableCall> = {
  To: exact((c) => c.to, ['to']),
  From: exact((c) => c.from, ['from']),
  ParentCallSid: exact((c) => (c.row?.parent_call_sid == null ? null : twilioSid(c.row.parent_call_sid)), ['row']),
  Status: Object.assign(
    (value: string, name: string) => {
      if (!(TWILIO_CALL_STATUSES as readonly string[]).includes(value)) {
        throw new ApiError(400, messages.twilioEnum(name, TWILIO_CALL_STATUSES, value), {}, TWILIO_BAD_PARAMETER);
      }
      return (c: FilterableCall) => twilioCallStatus(c) === value;
    },
    { reads: ['direction', 'status', 'live', 'swept', 'row'] as const },
  ),
  ...timeFilters('StartTime', startMs),
  ...timeFilters('EndTime', endMs),
};

/**
 * The recordings list's filters: `DateCreated` in its three forms, `CallSid` exact (Twilio's
 * form of the sid), `ConferenceSid` (no recording here is a conference's: none matches), and
 * `IncludeSoftDeleted`, read and checked (a deletion here is a hard one: nothing to include).
 */
export const TWILIO_RECORDING_FILTERS: FilterDefs<FilterableRecording> = {
  ...timeFilters('DateCreated', (r: FilterableRecording) => r.createdSec * 1000),
  CallSid: exact((r) => twilioSid(r.callSid)),
  ConferenceSid: () => () => false,
  IncludeSoftDeleted: (value, name) => {
    if (value !== 'true' && value !== 'false') {
      throw new ApiError(400, messages.twilioBoolean(name, value), {}, TWILIO_BAD_PARAMETER);
    }
    return () => true;
  },
};

/** A call's recordings: `DateCreated` in its three forms, as its list's parameters are. */
export const TWILIO_CALL_RECORDING_FILTERS: FilterDefs<FilterableRecording> = {
  ...timeFilters('DateCreated', (r: FilterableRecording) => r.createdSec * 1000),
};

/** What a notification filter of Twilio's reads. */
export interface TwilioFilterableNotification {
  createdSec: number;
  log: number;
}

/** A call's notifications: `Log` (0 an error, 1 a warning) and `MessageDate` in its three forms. */
export const TWILIO_NOTIFICATION_FILTERS: FilterDefs<TwilioFilterableNotification> = {
  Log: (value, name) => {
    if (value !== '0' && value !== '1')
      throw new ApiError(400, messages.twilioEnum(name, ['0', '1'], value), {}, TWILIO_BAD_PARAMETER);
    return (n) => String(n.log) === value;
  },
  ...timeFilters('MessageDate', (n: TwilioFilterableNotification) => n.createdSec * 1000),
};

/** What an account filter reads. */
export interface TwilioFilterableAccount {
  friendlyName: string;
  status: string;
}

const ACCOUNT_STATUSES = ['active', 'suspended', 'closed'];

/** The accounts list: `FriendlyName` exact, `Status` one of Twilio's. */
export const TWILIO_ACCOUNT_FILTERS: FilterDefs<TwilioFilterableAccount> = {
  FriendlyName: exact((a) => a.friendlyName),
  Status: (value, name) => {
    if (!ACCOUNT_STATUSES.includes(value))
      throw new ApiError(400, messages.twilioEnum(name, ACCOUNT_STATUSES, value), {}, TWILIO_BAD_PARAMETER);
    return (a) => a.status === value;
  },
};
