import { problems } from '../errors';
import { isoMillis, parseIsoMillis, parseRfc2822, rfc2822Date } from '../format/dates';
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

/** The start, in seconds: start_time, else date_created, else the default; both given must agree. */
function readStart(r: Reader, defaultSec: number): number {
  const startText = r.string('start_time');
  const createdText = r.string('date_created');
  let startSec = defaultSec;
  if (startText !== undefined) {
    const ms = parseIsoMillis(startText);
    if (ms === undefined || ms % 1000 !== 0) r.fail('start_time', problems.startTime(startText));
    startSec = ms / 1000;
  }
  if (createdText !== undefined) {
    const created = parseRfc2822(createdText);
    if (created === undefined || created.offsetMin !== 0) r.fail('date_created', problems.callCreated(createdText));
    if (startText !== undefined && created.sec !== startSec) {
      r.fail('date_created', problems.sameInstant('start_time', rfc2822Date(startSec)));
    }
    startSec = created.sec;
  }
  return startSec;
}

/**
 * Status, end and duration, which must agree: the end from end_time, else the start plus the
 * duration, else date_updated, else the default talk time; a call that was not completed lasted 0 s.
 */
function readEnd(r: Reader, call: CallRecord, startSec: number): void {
  call.status = r.oneOf('status', CALL_STATUSES) ?? call.status;
  const duration = r.integer('duration', 0, MAX_DURATION);
  const endText = r.string('end_time');
  const updatedText = r.string('date_updated');
  const ms = call.endMs % 1000;
  let endMs: number;
  if (endText !== undefined) {
    const parsed = parseIsoMillis(endText);
    if (parsed === undefined) r.fail('end_time', problems.endTime(endText));
    endMs = parsed;
  } else if (duration !== undefined) {
    endMs = (startSec + duration) * 1000 + ms;
  } else if (updatedText !== undefined) {
    const updated = parseRfc2822(updatedText);
    if (updated === undefined || updated.offsetMin !== 0) r.fail('date_updated', problems.callUpdated(updatedText));
    endMs = updated.sec * 1000 + ms;
  } else {
    const talk = call.status !== 'completed' ? 0 : call.duration > 0 ? call.duration : 60;
    endMs = (startSec + talk) * 1000 + ms;
  }
  if (endMs < startSec * 1000) r.fail(endText !== undefined ? 'end_time' : 'date_updated', problems.notBeforeStart);
  const computed = Math.floor((endMs - startSec * 1000) / 1000);
  if (duration !== undefined && duration !== computed) r.fail('duration', problems.durationSpan(computed));
  if (call.status !== 'completed' && computed !== 0) r.fail('duration', problems.zeroDuration(call.status, computed));
  if (updatedText !== undefined && parseRfc2822(updatedText)?.sec !== Math.floor(endMs / 1000)) {
    r.fail('date_updated', problems.endSecond(rfc2822Date(Math.floor(endMs / 1000))));
  }
  call.startSec = startSec;
  call.endMs = endMs;
  call.duration = computed;
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
  readEnd(r, call, readStart(r, call.startSec));
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
    status: call.status,
    direction: call.direction,
    caller_name: call.callerName,
    price: call.priceInt,
  };
}
