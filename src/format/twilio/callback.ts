import { createHmac } from 'node:crypto';
import type { CallRecord } from '../../generators/call-record';
import type { CallbackEvent } from '../../generators/created-call';
import type { RecordingRecord } from '../../generators/recording';
import type { CallbackRequest, Param } from '../callback';
import { TWILIO_VERSION } from '../uris';
import { twilioCallStatus, twilioDate, twilioSid } from './fields';

/**
 * The status a callback of Twilio's carries: the call's status at that state, not the event's
 * name. `initiated` is the one event Twilio sends as a status; `answered` is `in-progress`; at
 * the end, the call's final status (`completed`, `busy`, `no-answer`, `failed`, `canceled`).
 * @example twilioCallbackStatus('answered', call) // 'in-progress'
 */
export function twilioCallbackStatus(event: CallbackEvent, call: CallRecord): string {
  if (event === 'answered') return 'in-progress';
  if (event === 'completed') return twilioCallStatus(call);
  return event;
}

/**
 * A status callback's parameters as Twilio sends them: the call's (AccountSid, ApiVersion,
 * CallSid, From, To, Caller, Called, Direction), its status, and the callback's own:
 * `CallbackSource`, `SequenceNumber` (its place among the callbacks the call sends, from 0),
 * `Timestamp` (RFC 2822). At the end, `CallDuration` (seconds, the talk) and `Duration` (started
 * minutes).
 * @example twilioCallbackParams(call, 'AC1', 'completed', endMs, 2).find(([k]) => k === 'CallStatus') // ['CallStatus', 'completed']
 */
export function twilioCallbackParams(
  call: CallRecord,
  accountSid: string,
  event: CallbackEvent,
  atMs: number,
  sequence: number,
): Param[] {
  const params: Param[] = [
    ['AccountSid', accountSid],
    ['ApiVersion', TWILIO_VERSION],
    ['CallSid', twilioSid(call.sid)],
    ['CallStatus', twilioCallbackStatus(event, call)],
    ['Called', call.to],
    ['Caller', call.from],
    ['Direction', call.direction],
    ['From', call.from],
    ['To', call.to],
    ['CallbackSource', 'call-progress-events'],
    ['SequenceNumber', String(sequence)],
    ['Timestamp', twilioDate(Math.floor(atMs / 1000))],
  ];
  if (event === 'completed') {
    const seconds = call.status === 'completed' ? (call.duration ?? 0) : 0;
    params.push(['CallDuration', String(seconds)], ['Duration', String(Math.ceil(seconds / 60))]);
  }
  return params;
}

/**
 * `X-Twilio-Signature`: the HMAC-SHA1, keyed by the account's auth token, of the URL and then
 * each POST parameter's name and value, sorted by name; Base64. A GET's parameters are in its
 * URL. What `twilio.validateRequest` and `RequestValidator.validate` check.
 * @example twilioSignature('12345', 'https://mycompany.com/myapp.php?foo=1&bar=2', [['CallSid', 'CA1'], ['Caller', '+14158675309']]) // 'Base64…='
 */
export function twilioSignature(token: string, url: string, params: readonly Param[]): string {
  const sorted = [...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const data = url + sorted.map(([k, v]) => `${k}${v ?? ''}`).join('');
  return createHmac('sha1', token).update(data, 'utf8').digest('base64');
}

/**
 * The request of a callback of Twilio's to `target`: a POST of the parameters as a form to the
 * URL as given (its query kept), or a GET with them added to its query; signed either way.
 * @example twilioCallbackRequest(new URL('http://127.0.0.1:9/s'), 'POST', params, token).headers['X-Twilio-Signature'] // 'Base64…='
 */
export function twilioCallbackRequest(
  target: URL,
  method: string,
  params: readonly Param[],
  token: string,
): CallbackRequest | undefined {
  const verb = method.toUpperCase();
  if (verb !== 'GET' && verb !== 'POST') return undefined;
  const form = new URLSearchParams(params.map(([k, v]): [string, string] => [k, v ?? ''])).toString();
  const url = verb === 'GET' ? `${target.href}${target.search === '' ? '?' : '&'}${form}` : target.href;
  const signature = twilioSignature(token, url, verb === 'POST' ? params : []);
  const headers: Record<string, string> = { 'User-Agent': 'TwilioProxy/1.1', 'X-Twilio-Signature': signature };
  if (verb === 'POST') headers['Content-Type'] = 'application/x-www-form-urlencoded; charset=utf-8';
  return { method: verb, url, headers, body: verb === 'POST' ? form : '' };
}

/**
 * A recording status callback's parameters as Twilio sends them: `completed` with the
 * recording (its sid, media URL, duration in whole seconds, one channel, start, source), or
 * `absent` for a recorded call that ended unanswered. `ErrorCode` 0 either way.
 * @example twilioRecordingCallbackParams('AC1', call, rec, 'http://127.0.0.1:8080/2010-04-01/Accounts/AC1/Recordings/RE1')[3] // ['RecordingStatus', 'completed']
 */
export function twilioRecordingCallbackParams(
  accountSid: string,
  call: CallRecord,
  rec: RecordingRecord | null,
  mediaUrl: string | null,
): Param[] {
  const head: Param[] = [
    ['AccountSid', accountSid],
    ['CallSid', twilioSid(call.sid)],
  ];
  if (rec === null || mediaUrl === null) return [...head, ['RecordingStatus', 'absent'], ['ErrorCode', '0']];
  return [
    ...head,
    ['RecordingSid', rec.sid],
    ['RecordingStatus', 'completed'],
    ['RecordingUrl', mediaUrl],
    ['RecordingDuration', String(Math.round(rec.duration))],
    ['RecordingChannels', '1'],
    ['RecordingStartTime', twilioDate(rec.createdSec)],
    ['RecordingSource', 'RecordVerb'],
    ['ErrorCode', '0'],
  ];
}
