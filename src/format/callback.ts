import type { CallRecord } from '../generators/call-record';
import { CALLBACK_EVENTS, type CallbackEvent, userOf } from '../generators/created-call';
import { API_VERSION } from './uris';

/**
 * A status callback as Restcomm sends it (`Call.dialStatusCallbackParameters`, then the
 * `Downloader`): its parameters in production's order, encoded as Apache HttpClient's
 * `URLEncodedUtils.format` writes them, POSTed as a UTF-8 form or sent as a GET's query.
 */

/** A parameter's name and value; a null value is written as the bare name, with no `=`. */
export type Param = readonly [string, string | null];

/** The server's zone as a timestamp needs it: its name, and its offset from UTC at an instant, ms. */
export interface ZoneView {
  name: string;
  offsetMs(ms: number): number;
}

/** UTC, for callers with no zone of their own. */
export const UTC_ZONE: ZoneView = { name: 'UTC', offsetMs: () => 0 };

/**
 * The parameters of one callback, in production's order: InstanceId, AccountSid, CallSid, From,
 * To, Direction, CallerName (the From user again), ForwardedFrom (never set on an API call: a
 * bare name), CallStatus (the callback state: `answered`, not `in-progress`), CallDuration on
 * `completed` only, Timestamp, CallbackSource and SequenceNumber (the state's place, 0-3).
 * ParentCallSid would come before CallStatus, but a created call has none.
 * @example callbackParams(call, 'AC1', 'ringing', 1748779201000, UTC_ZONE)[8] // ['CallStatus', 'ringing']
 */
export function callbackParams(
  call: CallRecord,
  accountSid: string,
  event: CallbackEvent,
  atMs: number,
  zone: ZoneView,
): Param[] {
  const params: Param[] = [
    ['InstanceId', call.instanceId],
    ['AccountSid', accountSid],
    ['CallSid', call.sid],
    ['From', userOf(call.from)],
    ['To', userOf(call.to)],
    ['Direction', call.direction],
    ['CallerName', userOf(call.from)],
    ['ForwardedFrom', null],
    ['CallStatus', event],
  ];
  // callDuration is set only by the Completed action (end minus start_time, which the answer
  // reset: the talk; a canceled call's ring); busy and failed calls send the field's default, 0.
  if (event === 'completed') params.push(['CallDuration', String(call.duration ?? 0)]);
  params.push(
    ['Timestamp', jodaTimestamp(atMs, zone)],
    ['CallbackSource', 'call-progress-events'],
    ['SequenceNumber', String(CALLBACK_EVENTS.indexOf(event))],
  );
  return params;
}

/**
 * The parameters of an inbound call's callback, in the VoiceInterpreter's order
 * (`VoiceInterpreter.parameters`): CallSid, InstanceId, AccountSid, From, To, CallStatus (the
 * state's text: `in-progress`, not `answered`), ApiVersion, Direction, CallerName and
 * ForwardedFrom (the text `null` when there is none, not a bare name), CallTimestamp (the
 * creation as Joda's `DateTime.toString()`). No SequenceNumber, no Timestamp, no CallbackSource.
 * @example inboundCallbackParams(call, 'AC1', 'ringing', UTC_ZONE)[5] // ['CallStatus', 'ringing']
 */
export function inboundCallbackParams(call: CallRecord, accountSid: string, state: string, zone: ZoneView): Param[] {
  return [
    ['CallSid', call.sid],
    ['InstanceId', call.instanceId],
    ['AccountSid', accountSid],
    ['From', call.from],
    ['To', call.to],
    ['CallStatus', state],
    ['ApiVersion', API_VERSION],
    ['Direction', call.direction],
    ['CallerName', call.callerName === '' ? 'null' : call.callerName],
    ['ForwardedFrom', 'null'],
    ['CallTimestamp', jodaIso(call.startSec * 1000, zone)],
  ];
}

/**
 * Joda's `DateTime.toString()` in the server's zone: ISO 8601 with milliseconds and the offset,
 * `Z` when it is zero.
 * @example jodaIso(Date.UTC(2025, 5, 1, 12), UTC_ZONE) // '2025-06-01T12:00:00.000Z'
 */
export function jodaIso(ms: number, zone: ZoneView): string {
  const offset = zone.offsetMs(ms);
  const local = new Date(ms + offset).toISOString().slice(0, -1);
  if (offset === 0) return `${local}Z`;
  const abs = Math.abs(offset) / 60_000;
  return `${local}${offset < 0 ? '-' : '+'}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * Joda's `EEE, dd MMM YYYY HH:mm:ss ZZZZ` of an instant in the server's zone, as the Timestamp
 * parameter is written: the day zero-padded (unlike the records' dates), and the zone as its id
 * (`UTC`, `Europe/Madrid`, `+09:00`), never an offset like `+0000`.
 * @example jodaTimestamp(Date.UTC(2025, 5, 1, 12, 0, 5), UTC_ZONE) // 'Sun, 01 Jun 2025 12:00:05 UTC'
 */
export function jodaTimestamp(ms: number, zone: ZoneView): string {
  const local = new Date(ms + zone.offsetMs(ms));
  const time = `${pad2(local.getUTCHours())}:${pad2(local.getUTCMinutes())}:${pad2(local.getUTCSeconds())}`;
  const day = `${DAYS[local.getUTCDay()]}, ${pad2(local.getUTCDate())} ${MONTHS[local.getUTCMonth()]}`;
  return `${day} ${local.getUTCFullYear()} ${time} ${zoneId(zone.name)}`;
}

/** A zone's id as Joda prints it: a fixed offset as `+09:00`, a name as itself. */
function zoneId(zone: string): string {
  const fixed = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (fixed === null) return zone;
  return fixed[2] === '00' && fixed[3] === '00' ? 'UTC' : `${fixed[1]}${fixed[2]}:${fixed[3]}`;
}

/** Characters `URLEncodedUtils` leaves as they are; a space becomes `+`, the rest `%XX` of its UTF-8 bytes. */
const SAFE = /^[A-Za-z0-9_\-.*]$/;

/** One name or value as HttpClient's form encoding writes it. @example formPart('+1 5') // '%2B1+5' */
function formPart(text: string): string {
  let out = '';
  for (const ch of text) {
    if (SAFE.test(ch)) out += ch;
    else if (ch === ' ') out += '+';
    else for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Parameters as `URLEncodedUtils.format(params, "UTF-8")` writes them: `name=value` joined by `&`,
 * a null value as the bare name.
 * @example formEncode([['From', '+1555'], ['ForwardedFrom', null]]) // 'From=%2B1555&ForwardedFrom'
 */
export function formEncode(params: readonly Param[]): string {
  return params
    .map(([name, value]) => (value === null ? formPart(name) : `${formPart(name)}=${formPart(value)}`))
    .join('&');
}

/**
 * A query as `URLEncodedUtils.parse` reads it: pairs split on `&` and `;`, `+` a space, `%XX`
 * decoded (a malformed escape kept as it is); a pair with no `=` has a null value.
 * @example parseQuery('a=1&b') // [['a', '1'], ['b', null]]
 */
export function parseQuery(query: string): Param[] {
  const out: Param[] = [];
  for (const pair of query.split(/[&;]/)) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodePart(eq === -1 ? pair : pair.slice(0, eq));
    if (name === '') continue;
    out.push([name, eq === -1 ? null : decodePart(pair.slice(eq + 1))]);
  }
  return out;
}

function decodePart(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** A callback request as it goes on the wire. */
export interface CallbackRequest {
  method: 'GET' | 'POST';
  /** The absolute URL requested: the StatusCallback's scheme, user info, host, port and path, and for GET the query. */
  url: string;
  headers: Record<string, string>;
  /** The form body of a POST; empty for a GET. */
  body: string;
}

/**
 * The request the Downloader makes for a callback to `target` (an absolute http(s) URL):
 * - the URL's own query is read into parameters that follow production's (`HttpRequestDescriptor`
 *   adds them to the list), and the URL is cut to scheme, user info, host, port and path;
 * - GET puts every parameter in the query; POST sends them as a UTF-8 form body;
 * - the literal header `http.protocol.content-charset: UTF-8` goes on both (the Downloader sets a
 *   client parameter's name as a header); no signature header, no Accept.
 * Undefined for a method production refuses (anything but GET and POST, in any case: nothing is sent).
 * @example callbackRequest(new URL('http://127.0.0.1:9/s?x=1'), 'post', params).body // 'InstanceId=…&x=1'
 */
export function callbackRequest(target: URL, method: string, params: readonly Param[]): CallbackRequest | undefined {
  const verb = method.toUpperCase();
  if (verb !== 'GET' && verb !== 'POST') return undefined;
  const all = [...params, ...parseQuery(target.search.slice(1))];
  const user =
    target.username === '' ? '' : `${target.username}${target.password === '' ? '' : `:${target.password}`}@`;
  const base = `${target.protocol}//${user}${target.host}${target.pathname}`;
  const encoded = formEncode(all);
  const headers: Record<string, string> = { 'http.protocol.content-charset': 'UTF-8' };
  if (verb === 'GET') return { method: verb, url: encoded === '' ? base : `${base}?${encoded}`, headers, body: '' };
  headers['content-type'] = 'application/x-www-form-urlencoded; charset=UTF-8';
  return { method: verb, url: base, headers, body: encoded };
}
