import { problems } from '../errors';
import type { Call } from '../format/call';
import { isoMillis, parseInstant, parseRfc2822, rfc2822Date } from '../format/dates';
import { API_VERSION } from '../format/uris';
import { CALL_DIRECTIONS, CALL_STATUSES, type CallRecord } from '../generators/call';
import { insertedCallDefaults } from '../generators/inserted';
import { type Reader, readerOf } from '../input/fields';
import type { Account } from '../store/world';

/** Fields an inserted call may give: the wire fields, and `price`, which sorts but never shows. */
export const CALL_FIELDS = [
  'sid',
  'InstanceId',
  'date_created',
  'date_updated',
  'account_sid',
  'to',
  'from',
  'phone_number_sid',
  'status',
  'start_time',
  'end_time',
  'duration',
  'price_unit',
  'direction',
  'api_version',
  'caller_name',
  'price',
] as const;
const DERIVED = ['uri', 'subresource_uris'];

/**
 * What an insert may give: any field of the call but those the emulator derives, and `price`
 * (which sorts `SortBy=Price` and never shows). Everything is optional: the rest is generated.
 */
export type CallInput = Partial<Omit<Call, 'uri' | 'subresource_uris'>> & { price?: number };
const HEX32 = '[0-9a-f]{32}';
const MAX_DURATION = 86_400 * 7;

/**
 * A reader of one inserted record's fields: only `fields`, none of the `derived` ones, and the
 * account and version, when given, must be this account's and the API's.
 */
export function recordReader(
  account: Account,
  raw: unknown,
  at: string,
  fields: readonly string[],
  derived: readonly string[],
): Reader {
  const r = readerOf(raw, at, fields, derived);
  r.fixed('account_sid', account.profile.sid);
  r.fixed('api_version', API_VERSION);
  return r;
}

/** Direction, parties, caller name and number; a direction the defaults did not draw swaps the ends. */
function readParties(r: Reader, call: CallRecord): void {
  const direction = r.oneOf('direction', CALL_DIRECTIONS);
  if (direction !== undefined && (direction === 'inbound') !== (call.direction === 'inbound')) {
    // The defaults were drawn for the other side of the call: the account's number changes ends.
    [call.from, call.to] = [call.to, call.from];
  }
  call.direction = direction ?? call.direction;
  call.to = r.string('to') ?? call.to;
  call.from = r.string('from') ?? call.from;
  call.callerName = r.string('caller_name') ?? call.callerName;
  const phoneNumberSid = r.string('phone_number_sid', new RegExp(`^PN${HEX32}$`), problems.phoneNumberSid);
  call.phoneNumberSid = phoneNumberSid ?? call.phoneNumberSid;
}

/** The sid and InstanceId: a given sid carries its InstanceId, and must be free in the account. */
function readIdentity(r: Reader, account: Account, call: CallRecord): void {
  const instanceId = r.string('InstanceId', new RegExp(`^ID${HEX32}$`), problems.instanceId);
  const sid = r.string('sid', new RegExp(`^ID${HEX32}-CA${HEX32}$`), problems.callSid);
  if (sid !== undefined) {
    if (instanceId !== undefined && !sid.startsWith(`${instanceId}-`)) r.fail('sid', problems.sidInstance(instanceId));
    if (account.calls.find(sid) !== undefined) r.fail('sid', problems.taken(sid));
    call.sid = sid;
    call.instanceId = sid.slice(0, 34);
  } else if (instanceId !== undefined) {
    call.sid = `${instanceId}${call.sid.slice(34)}`;
    call.instanceId = instanceId;
  }
}

/** The start a body gives, in seconds: start_time and date_created, which must agree; or none. */
function givenStart(r: Reader): number | undefined {
  const startText = r.string('start_time');
  const createdText = r.string('date_created');
  let startSec: number | undefined;
  if (startText !== undefined) {
    // Any ISO 8601 instant with a zone: what the API prints (.000Z) and what people type (…:00Z).
    const ms = parseInstant(startText);
    if (ms === undefined || ms % 1000 !== 0) r.fail('start_time', problems.startTime(startText));
    startSec = ms / 1000;
  }
  if (createdText !== undefined) {
    const created = parseRfc2822(createdText);
    if (created === undefined || created.offsetMin !== 0) r.fail('date_created', problems.callCreated(createdText));
    if (startSec !== undefined && created.sec !== startSec) {
      r.fail('date_created', problems.sameInstant('start_time', rfc2822Date(startSec)));
    }
    startSec = created.sec;
  }
  return startSec;
}

/** The end a body gives, in ms: end_time, else date_updated (whole second); or none. */
function givenEnd(r: Reader, ms: number): number | undefined {
  const endText = r.string('end_time');
  if (endText !== undefined) {
    const parsed = parseInstant(endText);
    if (parsed === undefined) r.fail('end_time', problems.instant(endText));
    return parsed;
  }
  const updatedText = r.string('date_updated');
  if (updatedText === undefined) return undefined;
  const updated = parseRfc2822(updatedText);
  if (updated === undefined || updated.offsetMin !== 0) r.fail('date_updated', problems.callUpdated(updatedText));
  return updated.sec * 1000 + ms;
}

const LIVE_STATUSES: readonly string[] = ['queued', 'ringing', 'in-progress'];

/**
 * A call inserted live: `status` `queued`, `ringing` or `in-progress` now (at its start, the
 * clock by default) until `end_time`, then `completed` (from in-progress, its duration the span)
 * or `no-answer` (from queued or ringing). `end_time` is required; `duration` and `date_updated`
 * follow from the life and may not be given. False when the status is not a live one.
 */
function readLive(r: Reader, call: CallRecord, defaultStart: number): boolean {
  const status = r.body['status'];
  if (typeof status !== 'string' || !LIVE_STATUSES.includes(status)) return false;
  for (const field of ['duration', 'date_updated']) if (r.has(field)) r.fail(field, problems.liveDerived);
  const startSec = givenStart(r) ?? defaultStart;
  const endMs = givenEnd(r, call.endMs % 1000);
  if (endMs === undefined) r.fail('end_time', problems.liveEnd);
  if (endMs < (startSec + 1) * 1000) r.fail('end_time', problems.liveEnd);
  const answered = status === 'in-progress';
  call.startSec = startSec;
  call.endMs = endMs;
  call.status = answered ? 'completed' : 'no-answer';
  call.duration = answered ? Math.floor((endMs - startSec * 1000) / 1000) : 0;
  call.lifecycle = { status: status as 'queued' | 'ringing' | 'in-progress' };
  return true;
}

/**
 * Start, end, duration and status, which must agree. What is given wins, and what is generated
 * is made to fit it: a given talk time (a duration, or a start and an end a second or more
 * apart) makes the call completed; a given end and no start puts the start the talk time before
 * it; a call with no dates starts at `defaultStart`. What still contradicts is refused: a
 * duration that is not the span, a call that was not completed and lasted, an end before the start.
 */
function readTimes(r: Reader, call: CallRecord, defaultStart: number): void {
  const ms = call.endMs % 1000;
  const start = givenStart(r);
  const status = r.oneOf('status', CALL_STATUSES);
  const duration = r.integer('duration', 0, MAX_DURATION);
  const end = givenEnd(r, ms);
  const span = start !== undefined && end !== undefined ? Math.floor((end - start * 1000) / 1000) : undefined;
  call.status = status ?? ((duration ?? span ?? 0) > 0 ? 'completed' : call.status);
  const talk = duration ?? span ?? (call.status !== 'completed' ? 0 : call.duration > 0 ? call.duration : 60);
  const startSec = start ?? (end !== undefined ? Math.floor(end / 1000) - talk : defaultStart);
  const endMs = end ?? (startSec + talk) * 1000 + ms;
  const endField = r.has('end_time') ? 'end_time' : 'date_updated';
  if (endMs < startSec * 1000) r.fail(endField, problems.notBeforeStart);
  const computed = Math.floor((endMs - startSec * 1000) / 1000);
  if (duration !== undefined && duration !== computed) r.fail('duration', problems.durationSpan(computed));
  if (call.status !== 'completed' && computed !== 0) r.fail('duration', problems.zeroDuration(call.status, computed));
  const updatedText = r.string('date_updated');
  if (updatedText !== undefined && parseRfc2822(updatedText)?.sec !== Math.floor(endMs / 1000)) {
    r.fail('date_updated', problems.endSecond(rfc2822Date(Math.floor(endMs / 1000))));
  }
  call.startSec = startSec;
  call.endMs = endMs;
  call.duration = computed;
}

/**
 * Where an inserted call with no dates starts: at the clock (the reference instant until moved),
 * and a second after the newest inserted call, so that calls inserted one after another arrive in that order ("a new
 * call came in after my last poll" needs no dates). `k` past the account's next insert number
 * counts the calls of the same batch before this one.
 */
function arrival(account: Account, k: number): number {
  const newest = Math.max(Math.floor(account.context.nowMs / 1000) - 1, account.calls.newestInserted() ?? -Infinity);
  return newest + 1 + Math.max(0, k - account.calls.nextInsert);
}

/**
 * The call an admin insert describes: the given fields, validated against the wire formats
 * (README, "Production quirks we copy"), and the rest generated (see `insertedCallDefaults`).
 * Fields that depend on each other must agree (see `readStart`, `readEnd`). `k` is the insert
 * number, which keys the defaults. Throws a ValidationError naming the field.
 */
export function callFromInput(account: Account, raw: unknown, at: string, k = account.calls.nextInsert): CallRecord {
  const r: Reader = recordReader(account, raw, at, CALL_FIELDS, DERIVED);
  r.fixed('price_unit', 'USD');
  const call = insertedCallDefaults(account.context, account.profile, k);
  readParties(r, call);
  readIdentity(r, account, call);
  if (!readLive(r, call, arrival(account, k))) readTimes(r, call, arrival(account, k));
  const price = r.number('price', 0, 1e9);
  if (price !== undefined) call.priceInt = Math.floor(price);
  else if (call.duration === 0) call.priceInt = 0;
  return call;
}

/** An inserted call in input form: every field, so that replaying it (a state import) rebuilds it exactly. */
export function callAsInput(call: CallRecord): Record<string, unknown> {
  return {
    sid: call.sid,
    date_created: rfc2822Date(call.startSec),
    start_time: isoMillis(call.startSec * 1000),
    end_time: isoMillis(call.endMs),
    to: call.to,
    from: call.from,
    phone_number_sid: call.phoneNumberSid,
    // A live insert goes out as it came in: its live status, its end.
    status: call.lifecycle?.status ?? call.status,
    direction: call.direction,
    caller_name: call.callerName,
    price: call.priceInt,
  };
}
