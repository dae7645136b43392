import { problems, ValidationError } from '../errors';
import type { Call } from '../format/call';
import { isoMillis, parseInstant, parseRfc2822, rfc2822Date } from '../format/dates';
import { API_VERSION } from '../format/uris';
import {
  type CallState,
  endsWithoutEndTime,
  STORED_STATUSES,
  shownEndMs,
  stateOfText,
  storedStatus,
} from '../generators/call-life';
import { CALL_DIRECTIONS, type CallRecord, type CallStatus } from '../generators/call-record';
import { CALLBACK_EVENTS } from '../generators/created-call';
import { insertedCallDefaults } from '../generators/inserted';
import type { TableRows } from '../generators/rows';
import { callOfRow } from '../generators/verbatim';
import { checkKeys, isObject, type Reader, readerOf } from '../input/fields';
import { readJsonRow, rowAsJson } from '../input/restcomm-tables';
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
  'answered_by',
  'caller_name',
  'ring_duration',
  'price',
  'created',
] as const;
const DERIVED = ['uri', 'subresource_uris'];

/**
 * What an insert may give: any field of the call but those the emulator derives, and `price`
 * (which sorts `SortBy=Price` and never shows). Everything is optional: the rest is generated.
 */
export type CallInput = Partial<Omit<Call, 'uri' | 'subresource_uris'>> & { price?: number; created?: CreatedInput };

/**
 * A call made by `POST Calls.json`, as a state keeps it: the instant of the request, and its
 * status callback. Such a call lives its life on the clock from its creation (queued, ringing,
 * answered or not) to the final form the other fields give, sending its callbacks on the way.
 * @example { at: '2025-06-01T12:00:00.250Z', status_callback: 'http://127.0.0.1:9000/s', status_callback_method: 'POST' }
 */
export interface CreatedInput {
  at: string;
  status_callback?: string;
  status_callback_method?: string;
  /** Twilio's `StatusCallbackEvent`, space-separated: the states it sends (absent: Restcomm's rule, all four). */
  status_callback_event?: string;
  /** Twilio's `Record=true`: the call's recording is made as it ends. */
  record?: boolean;
  /** Its `RecordingStatusCallback`, method and events (space-separated), with `record`. */
  recording_status_callback?: string;
  recording_status_callback_method?: string;
  recording_status_callback_event?: string;
}
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

/**
 * A row of production's own data given as `{"row": {…}}` (every column of its table, as a dump
 * holds it): checked against the schema, the account's, and its sid free. Nothing is filled in.
 * @example rowInput(account, { row: { sid: 'CA01…', … } }, 'body[0]', 'restcomm_call_detail_records')
 */
export function rowInput<T extends 'restcomm_call_detail_records' | 'restcomm_recordings'>(
  account: Account,
  raw: Record<string, unknown>,
  at: string,
  table: T,
): TableRows[T] {
  checkKeys(raw, at, ['row']);
  const row = readJsonRow(table, raw['row'], `${at}.row`, false);
  if (row.account_sid !== account.profile.sid)
    throw new ValidationError(`${at}.row.account_sid`, problems.rowAccount(account.profile.sid, row.account_sid));
  const list = table === 'restcomm_call_detail_records' ? account.calls : account.recordings;
  if (list.find(row.sid) !== undefined) throw new ValidationError(`${at}.row.sid`, problems.taken(row.sid));
  return row;
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

/** An instant a body gives in `field` (ISO 8601 with a zone, whole seconds) as seconds, or none. */
function givenSecond(r: Reader, field: 'start_time'): number | undefined {
  const text = r.string(field);
  if (text === undefined) return undefined;
  // Any ISO 8601 instant with a zone: what the API prints (.000Z) and what people type (…:00Z).
  const ms = parseInstant(text);
  if (ms === undefined || ms % 1000 !== 0) r.fail(field, problems.startTime(text));
  return ms / 1000;
}

/** date_created as seconds, or none: calls are written in +0000. */
function givenCreated(r: Reader): number | undefined {
  const text = r.string('date_created');
  if (text === undefined) return undefined;
  const created = parseRfc2822(text);
  if (created === undefined || created.offsetMin !== 0) r.fail('date_created', problems.callCreated(text));
  return created.sec;
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

/** The status a body gives, in any of production's spellings, as a state; or none. */
function givenState(r: Reader): CallState | undefined {
  const text = r.body['status'];
  if (text === undefined) return undefined;
  const state = typeof text === 'string' ? stateOfText(text) : undefined;
  if (state === undefined) r.fail('status', problems.oneOf(STORED_STATUSES, text));
  return state;
}

/**
 * Creation and answer, in seconds, of an answered call: date_created, start_time (the answer)
 * and ring_duration must agree; what is missing follows from the rest, the drawn ring, or the
 * arrival.
 */
function answeredTimes(r: Reader, call: CallRecord, defaultStart: number): { created: number; answer: number } {
  const created = givenCreated(r);
  const answer = givenSecond(r, 'start_time');
  const ring = r.integer('ring_duration', 0, MAX_DURATION);
  if (created !== undefined && answer !== undefined) {
    if (answer < created) r.fail('start_time', problems.notBeforeCreated);
    if (ring !== undefined && ring !== answer - created) r.fail('ring_duration', problems.ringSpan(answer - created));
    return { created, answer };
  }
  const rang = ring ?? call.ringSec;
  if (answer !== undefined) return { created: answer - rang, answer };
  const c = created ?? defaultStart;
  return { created: c, answer: c + rang };
}

/**
 * A call inserted live: `status` `queued` (outbound only), `ringing` or `in-progress` now (at
 * its creation, the clock by default) until `end_time`, then `completed` (from in-progress, its
 * duration the talk) or `no-answer` (from queued or ringing). `end_time` is required; duration,
 * date_updated and ring_duration follow from the life and may not be given. False when the
 * status is not a live one.
 */
function readLive(r: Reader, call: CallRecord, state: CallState | undefined, defaultStart: number): boolean {
  if (state !== 'queued' && state !== 'ringing' && state !== 'in-progress') return false;
  if (state === 'queued' && call.direction === 'inbound') r.fail('status', problems.inboundQueued);
  for (const field of ['duration', 'date_updated', 'ring_duration'])
    if (r.has(field)) r.fail(field, problems.liveDerived);
  const answered = state === 'in-progress';
  const { created, answer } = answered
    ? // Answered as it is created (in-progress now), unless its dates say it rang first.
      answeredTimes(r, { ...call, ringSec: 0 }, defaultStart)
    : { created: unansweredCreated(r, defaultStart), answer: 0 };
  const endMs = givenEnd(r, call.endMs % 1000);
  const from = answered ? answer : created;
  if (endMs === undefined || endMs < (from + 1) * 1000) r.fail('end_time', problems.liveEnd);
  call.startSec = created;
  call.endMs = endMs;
  call.status = answered ? 'completed' : 'no-answer';
  call.ringSec = answered ? answer - created : Math.floor(endMs / 1000) - created;
  const talk = Math.floor((endMs - from * 1000) / 1000);
  call.duration = answered ? talk : call.direction === 'inbound' ? talk : null;
  call.lifecycle = { status: state };
  return true;
}

/** The creation of a call that was not answered: start_time stays at it, so both must agree. */
function unansweredCreated(r: Reader, defaultStart: number): number {
  const created = givenCreated(r);
  const start = givenSecond(r, 'start_time');
  if (created !== undefined && start !== undefined && created !== start) {
    r.fail('date_created', problems.sameInstant('start_time', rfc2822Date(start)));
  }
  return created ?? start ?? defaultStart;
}

/**
 * Times and status of a call inserted ended, which must agree as production writes them
 * (generators/call-life.ts). What is given wins, and what is generated is made to fit it: a given
 * talk (a duration, or a start and an end a second or more apart) and no status makes the call
 * completed; a call with no dates ended at the clock (`nowMs`), its date_updated too, and was
 * created as long before as its ring and talk. What still contradicts is refused:
 * a duration that is not the span, an end_time production would not have written, an end before
 * the start.
 */
function readTimes(
  r: Reader,
  call: CallRecord,
  state: CallStatus | undefined,
  defaultStart: number,
  nowMs: number,
): void {
  const ms = call.endMs % 1000;
  const duration = r.integer('duration', 0, MAX_DURATION);
  const noDates = !r.has('date_created') && !r.has('start_time');
  const givenEndMs = givenEnd(r, ms);
  const start = givenSecond(r, 'start_time');
  const inbound = call.direction === 'inbound';
  const talkGiven =
    (duration ?? 0) > 0 || (start !== undefined && givenEndMs !== undefined && givenEndMs >= (start + 1) * 1000);
  // With no status given, the drawn one stands unless the given fields say the call was
  // answered, or are fields production never writes on it: then completed, the common case.
  const misfit =
    endsWithoutEndTime(call.direction, call.status) &&
    (r.has('end_time') || (duration !== undefined && call.status !== 'busy'));
  const status: CallStatus = state ?? (talkGiven || misfit ? 'completed' : call.status);
  const spelled = storedStatus(call.direction, status);
  const answered = status === 'completed';
  // The Call actor writes only the status of an outbound call that ends busy, unanswered,
  // failed or not found (busy also its duration 0 and ring_duration): no end_time.
  const endless = endsWithoutEndTime(call.direction, status);
  if (endless && r.has('end_time')) r.fail('end_time', problems.noEndTime(spelled));
  if (endless && status !== 'busy' && duration !== undefined) r.fail('duration', problems.noDuration(spelled));
  if (!inbound && !answered && status !== 'busy' && r.has('ring_duration'))
    r.fail('ring_duration', problems.noRing(spelled));
  if (inbound && r.has('ring_duration')) r.fail('ring_duration', problems.noRing(spelled));
  // A call with no dates ended at the clock (or at its date_updated): placed after it, its
  // date_updated and end_time were ahead of the clock, and a sync keyed on them saw the future.
  // One with no end_time on the wire keeps its drawn milliseconds (nothing shows them) in the
  // clock's second, so that a state export, which has no field for them, reads back the same.
  const updated = noDates && !r.has('end_time') ? parseRfc2822(r.string('date_updated') ?? '')?.sec : undefined;
  const endAtClock = endless ? Math.floor(nowMs / 1000) * 1000 + ms : nowMs;
  const end = givenEndMs ?? (noDates ? (updated === undefined ? endAtClock : updated * 1000 + ms) : undefined);
  const drawnTalk = call.status === 'completed' && call.duration !== null ? call.duration : 60;
  // Seconds from start_time to the end: the talk, or the ring of a call not answered.
  const span = answered
    ? (duration ?? drawnTalk)
    : inbound || status === 'canceled'
      ? (duration ?? call.ringSec)
      : call.ringSec;
  // An end and no dates: the call is placed to end then.
  const ring = answered ? (r.integer('ring_duration', 0, MAX_DURATION) ?? call.ringSec) : 0;
  const anchor = noDates && end !== undefined ? Math.floor(end / 1000) - span - ring : defaultStart;
  const { created, answer } = answered
    ? answeredTimes(r, call, anchor)
    : { created: unansweredCreated(r, anchor), answer: 0 };
  const from = answered ? answer : created;
  const endMs = end ?? (from + span) * 1000 + ms;
  const endField = r.has('end_time') ? 'end_time' : 'date_updated';
  if (endMs < from * 1000) r.fail(endField, problems.notBeforeStart);
  const computed = Math.floor((endMs - from * 1000) / 1000);
  if (status === 'busy' && !inbound) {
    if (duration !== undefined && duration !== 0) r.fail('duration', problems.zeroDuration(spelled, duration));
    const ring = r.integer('ring_duration', 0, MAX_DURATION);
    if (ring !== undefined && ring !== computed) r.fail('ring_duration', problems.ringSpan(computed));
  } else if (!endless && duration !== undefined && duration !== computed) {
    r.fail('duration', problems.durationSpan(computed));
  }
  const updatedText = r.string('date_updated');
  if (updatedText !== undefined && parseRfc2822(updatedText)?.sec !== Math.floor(endMs / 1000)) {
    r.fail('date_updated', problems.endSecond(rfc2822Date(Math.floor(endMs / 1000))));
  }
  call.status = status;
  call.startSec = created;
  call.endMs = endMs;
  call.ringSec = answered ? answer - created : computed;
  call.duration = answered ? computed : inbound || status === 'canceled' ? computed : status === 'busy' ? 0 : null;
}

/**
 * Where an inserted call that is live (or dated only by its end) starts when no creation is
 * given: at the clock, and a second after the newest inserted call, so that calls inserted one
 * after another arrive in that order. `k` past the account's next insert number counts the calls
 * of the same batch before this one.
 */
function arrival(account: Account, k: number): number {
  const newest = Math.max(Math.floor(account.context.nowMs / 1000) - 1, account.calls.newestInserted() ?? -Infinity);
  return newest + 1 + Math.max(0, k - account.calls.nextInsert);
}

/**
 * The call an admin insert describes: the given fields, validated against the wire formats
 * (docs/quirks.md), and the rest generated (see `insertedCallDefaults`).
 * Fields that depend on each other must agree (see `readStart`, `readEnd`). `k` is the insert
 * number, which keys the defaults. Throws a ValidationError naming the field.
 */
export function callFromInput(account: Account, raw: unknown, at: string, k = account.calls.nextInsert): CallRecord {
  if (isObject(raw) && raw['row'] !== undefined)
    return callOfRow(rowInput(account, raw, at, 'restcomm_call_detail_records'));
  const r: Reader = recordReader(account, raw, at, CALL_FIELDS, DERIVED);
  r.fixed('price_unit', 'USD');
  const call = insertedCallDefaults(account.context, account.profile, k);
  readParties(r, call);
  readIdentity(r, account, call);
  const answeredBy = r.string('answered_by');
  const state = givenState(r);
  if (!readLive(r, call, state, arrival(account, k)))
    readTimes(r, call, state as CallStatus | undefined, arrival(account, k), account.context.nowMs);
  // answered_by is the callee of an answered outbound call, as the Call actor writes it.
  if (
    answeredBy !== undefined &&
    (call.direction === 'inbound' || call.status !== 'completed' || answeredBy !== call.to)
  ) {
    r.fail('answered_by', problems.answeredBy(call.to));
  }
  const price = r.number('price', 0, 1e9);
  if (price !== undefined) call.priceInt = Math.floor(price);
  else if (call.status !== 'completed') call.priceInt = 0;
  readCreated(r, call);
  return call;
}

/** `created`: the call was made by `POST Calls.json` (see CreatedInput); an outbound-api call with a final status. */
function readCreated(r: Reader, call: CallRecord): void {
  const raw = r.body['created'];
  if (raw === undefined) return;
  const c: Reader = readerOf(raw, `${r.at}.created`, [
    'at',
    'status_callback',
    'status_callback_method',
    'status_callback_event',
    'record',
    'recording_status_callback',
    'recording_status_callback_method',
    'recording_status_callback_event',
  ]);
  const atText = c.string('at');
  const atMs = atText === undefined ? undefined : parseInstant(atText);
  if (atMs === undefined || Math.floor(atMs / 1000) !== call.startSec)
    c.fail('at', problems.createdAt(rfc2822Date(call.startSec)));
  if (call.direction !== 'outbound-api' || call.lifecycle !== undefined) r.fail('created', problems.createdCall);
  const url = c.string('status_callback');
  const method = c.string('status_callback_method');
  if (url === undefined && method !== undefined) c.fail('status_callback_method', problems.createdMethod);
  const eventsText = c.string('status_callback_event');
  if (url === undefined && eventsText !== undefined) c.fail('status_callback_event', problems.createdMethod);
  const named = (eventsText ?? '').split(' ').filter((e) => e !== '');
  for (const e of named) {
    if (!(CALLBACK_EVENTS as readonly string[]).includes(e))
      c.fail('status_callback_event', problems.oneOf(CALLBACK_EVENTS, e));
  }
  call.lifecycle = { status: 'queued', natural: true };
  if (url !== undefined) {
    call.callback = { url, method: method ?? 'POST', createdMs: atMs };
    if (eventsText !== undefined) call.callback.events = CALLBACK_EVENTS.filter((e) => named.includes(e));
  }
  readRecord(c, call);
}

/** A created call's `record` and its recording status callback, as `createdAsInput` writes them. */
function readRecord(c: Reader, call: CallRecord): void {
  const record = c.boolean('record');
  const url = c.string('recording_status_callback');
  const method = c.string('recording_status_callback_method') ?? 'POST';
  const events = (c.string('recording_status_callback_event') ?? 'completed').split(' ').filter((e) => e !== '');
  if (record !== true) {
    if (url !== undefined) c.fail('recording_status_callback', problems.needsRecord);
    return;
  }
  const kinds = ['completed', 'absent'] as const;
  for (const e of events)
    if (!(kinds as readonly string[]).includes(e)) c.fail('recording_status_callback_event', problems.oneOf(kinds, e));
  call.record = {
    callback: url === undefined ? null : { url, method, events: kinds.filter((k) => events.includes(k)) },
  };
}

/**
 * An inserted call in input form: every field, so that replaying it (a state import) rebuilds it
 * exactly. The end goes out as end_time where the call shows one (and for a live insert, which
 * needs it), else as date_updated, its second, which is all such a call shows of it.
 */
export function callAsInput(call: CallRecord): Record<string, unknown> {
  if (call.row !== undefined) return { row: rowAsJson('restcomm_call_detail_records', call.row) };
  const answered = call.status === 'completed';
  // A created call goes out in its final form and `created`: it lives its life again from there.
  const created = call.lifecycle?.natural === true;
  const live = call.lifecycle !== undefined && !created;
  const withEnd = live || shownEndMs(call) !== undefined;
  return {
    sid: call.sid,
    date_created: rfc2822Date(call.startSec),
    start_time: isoMillis((answered ? call.startSec + call.ringSec : call.startSec) * 1000),
    ...(withEnd ? { end_time: isoMillis(call.endMs) } : { date_updated: rfc2822Date(Math.floor(call.endMs / 1000)) }),
    to: call.to,
    from: call.from,
    phone_number_sid: call.phoneNumberSid,
    // A live insert goes out as it came in: its live status, its end.
    status: storedStatus(call.direction, live ? (call.lifecycle?.status ?? call.status) : call.status),
    direction: call.direction,
    caller_name: call.callerName,
    price: call.priceInt,
    ...(created ? { created: createdAsInput(call) } : {}),
  };
}

function createdAsInput(call: CallRecord): CreatedInput {
  const sub = call.callback;
  if (sub === undefined) return { at: isoMillis(call.startSec * 1000), ...recordAsInput(call) };
  return {
    at: isoMillis(sub.createdMs),
    status_callback: sub.url,
    status_callback_method: sub.method,
    // Twilio's subscription keeps the states it asked for: an import sends those alone.
    ...(sub.events === undefined ? {} : { status_callback_event: sub.events.join(' ') }),
    ...recordAsInput(call),
  };
}

/** A created call's `Record=true` and its recording status callback, as `readRecord` reads them. */
function recordAsInput(call: CallRecord): Partial<CreatedInput> {
  if (call.record === undefined) return {};
  const sub = call.record.callback;
  if (sub === null) return { record: true };
  return {
    record: true,
    recording_status_callback: sub.url,
    recording_status_callback_method: sub.method,
    recording_status_callback_event: sub.events.join(' '),
  };
}
