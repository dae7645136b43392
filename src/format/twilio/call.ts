import { shownDuration, shownEndMs, shownStartSec } from '../../generators/call-life';
import type { CallRecord } from '../../generators/call-record';
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
  return JSON.stringify(twilioCall(call, accountSid));
}

/** The call's members (see `twilioCallJson`). */
export function twilioCall(call: CallRecord, accountSid: string): Record<string, unknown> {
  const sid = twilioSid(call.sid);
  const status = twilioCallStatus(call);
  const completed = status === 'completed';
  const dialed = status !== 'queued';
  const endMs = shownEndMs(call) ?? call.endMs;
  const duration = completed ? (shownDuration(call) ?? 0) : null;
  const start = shownStartSec(call);
  const parent = call.row?.parent_call_sid ?? null;
  return {
    sid,
    date_created: twilioDate(call.startSec),
    date_updated: twilioDate(Math.floor((call.live?.updatedSec ?? endMs / 1000) as number)),
    parent_call_sid: parent === null ? null : twilioSid(parent),
    account_sid: accountSid,
    to: call.to,
    to_formatted: formattedNumber(call.to),
    from: call.from,
    from_formatted: formattedNumber(call.from),
    phone_number_sid: call.phoneNumberSid === '' ? null : call.phoneNumberSid,
    status,
    start_time: dialed && Number.isFinite(start) ? twilioDate(start) : null,
    end_time: completed ? twilioDate(Math.floor(endMs / 1000)) : null,
    duration: duration === null ? null : String(duration),
    price: duration === null ? null : twilioPrice(callPriceUnits(call.direction, duration)),
    price_unit: 'USD',
    direction: call.direction,
    answered_by: null,
    api_version: TWILIO_VERSION,
    forwarded_from: null,
    group_sid: null,
    caller_name: call.callerName === '' ? null : call.callerName,
    queue_time: '0',
    trunk_sid: null,
    uri: twilioCallUri(accountSid, sid),
    subresource_uris: Object.fromEntries(CALL_SUBRESOURCES.map(([k, seg]) => [k, twilioCallUri(accountSid, sid, seg)])),
  };
}
