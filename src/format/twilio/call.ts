import { shownDuration, shownEndMs, shownStartSec } from '../../generators/call-life';
import type { CallRecord } from '../../generators/call-record';
import { jsonString } from '../json-string';
import { TWILIO_VERSION, twilioCallUri } from '../uris';
import { callPriceUnits, formattedNumber, twilioCallStatus, twilioDate, twilioPrice, twilioSid } from './fields';

/** The lists under a call that Twilio names in its `subresource_uris`, in Twilio's order. */
const CALL_SUBRESOURCES: readonly [string, string][] = [
  ['events', 'Events'],
  ['notifications', 'Notifications'],
  ['recordings', 'Recordings'],
];

/**
 * A call as Twilio's `api.v2010.account.call` schema has it: every property present, in the
 * schema's order, null where the call has no value.
 * - From the same life as the other dialects: Twilio's status (`twilioCallStatus`), the
 *   direction as it stands.
 * - `start_time` is the answer for an answered call (as Restcomm resets it), so `duration` is the
 *   talk time; both are null until the call is dialed or answered.
 * - As the schema says, `duration` and `end_time` are empty for a call that did not complete, and
 *   only a completed call has a `price`: its started minutes at Twilio's US list rates.
 * - `duration`, `price` and `queue_time` are strings.
 * - Nothing here uses `answered_by` (no answering machine detection), `forwarded_from`, a group
 *   or a trunk: null. A row of production's own data gives its parent call.
 * @example twilioCallJson(call, 'AC1') // '{"sid":"CA…","date_created":"Sun, 01 Jun 2025 02:17:08 +0000",…}'
 */
export function twilioCallJson(call: CallRecord, accountSid: string): string {
  const sid = twilioSid(call.sid);
  const status = twilioCallStatus(call);
  const completed = status === 'completed';
  const endMs = shownEndMs(call) ?? call.endMs;
  const duration = completed ? (shownDuration(call) ?? 0) : null;
  const start = shownStartSec(call);
  const parent = call.row?.parent_call_sid ?? null;
  const uri = twilioCallUri(accountSid, sid, '');
  const base = uri.slice(0, -'.json'.length);
  // One `+` chain, as the service's own call writer (format/call.ts): a page writes fifty fresh.
  return (
    '{"sid":"' +
    sid +
    '","date_created":"' +
    twilioDate(call.startSec) +
    '","date_updated":"' +
    twilioDate(call.live?.updatedSec ?? Math.floor(endMs / 1000)) +
    '","parent_call_sid":' +
    text(parent === null ? null : twilioSid(parent)) +
    ',"account_sid":"' +
    accountSid +
    '","to":' +
    jsonString(call.to) +
    ',"to_formatted":' +
    jsonString(formattedNumber(call.to)) +
    ',"from":' +
    jsonString(call.from) +
    ',"from_formatted":' +
    jsonString(formattedNumber(call.from)) +
    ',"phone_number_sid":' +
    text(call.phoneNumberSid === '' ? null : call.phoneNumberSid) +
    ',"status":"' +
    status +
    '","start_time":' +
    text(status !== 'queued' && Number.isFinite(start) ? twilioDate(start) : null) +
    ',"end_time":' +
    text(completed ? twilioDate(Math.floor(endMs / 1000)) : null) +
    ',"duration":' +
    text(duration === null ? null : String(duration)) +
    ',"price":' +
    text(duration === null ? null : twilioPrice(callPriceUnits(call.direction, duration))) +
    ',"price_unit":"USD","direction":' +
    jsonString(call.direction) +
    ',"answered_by":null,"api_version":"' +
    TWILIO_VERSION +
    '","forwarded_from":null,"group_sid":null,"caller_name":' +
    text(call.callerName === '' ? null : call.callerName) +
    ',"queue_time":"0","trunk_sid":null,"uri":"' +
    uri +
    '","subresource_uris":{' +
    CALL_SUBRESOURCES.map(([k, seg]) => `"${k}":"${base}/${seg}.json"`).join(',') +
    '}}'
  );
}

/** A JSON string, or null. */
const text = (value: string | null) => (value === null ? 'null' : jsonString(value));
