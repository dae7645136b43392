import {
  shownAnsweredBy,
  shownDuration,
  shownEndMs,
  shownRingDuration,
  shownStartSec,
  shownStatus,
  shownUpdatedSec,
} from '../generators/call-life';
import type { CallRecord } from '../generators/call-record';
import { type ByteSink, plainBytes, quotedBytes, writeNumber } from './byte-sink';
import { isoMillis, rfc2822Date, writeIsoMillis, writeRfc2822 } from './dates';
import { jsonString } from './json-string';
import { asAccount, callRowJson, callRowXml } from './rows';
import { API_VERSION, callSubresourceUri, callUri, callUriParts } from './uris';
import type { XmlField } from './xml';

/**
 * A call in the wire shape, members in production's order (`CallDetailRecordConverter`): sid,
 * InstanceId, date_created, date_updated, account_sid, to, from, phone_number_sid, status,
 * start_time, end_time, duration, price_unit, direction, answered_by, api_version, caller_name,
 * uri, ring_duration, subresource_uris. Production's Gson leaves null members out, so end_time,
 * duration, answered_by and ring_duration appear only where the call's life wrote them
 * (generators/call-life.ts). The price is kept for sorting but never written: production's JSON
 * converter does not emit it either.
 *
 * Written as one `+` chain rather than `JSON.stringify` of an object: a cold page writes every
 * item fresh. What depends on the account alone (its sid and the path every URI shares) is
 * built once per account (`frameOf`), so the chain has some thirty pieces. Measured on one core,
 * a call with the copy its page makes: 2.4 us as forty pieces joined with `join('')`, 1.9 us
 * so; V8 copies short pieces a byte at a time, and a writer of bytes into the page's buffer
 * measured 3.8 us. Sids and URIs are hex and fixed text; every other string goes through
 * `jsonString`, so the bytes equal `JSON.stringify` of the same object (the golden files pin that).
 * A call of production's own data is written from its row (`callRowJson`); a test checks that a
 * generated call, written as the row production would hold, reads back to these same bytes.
 * @example callJson(call, 'AC1') // '{"sid":"ID…-CA…","InstanceId":"ID…","date_created":"Fri, 5 Jul 2013 22:15:53 +0000",…}'
 */
export function callJson(call: CallRecord, accountSid: string): string {
  if (call.row !== undefined) return callRowJson(asAccount(call.row, accountSid));
  const frame = frameOf(accountSid);
  const endMs = shownEndMs(call);
  const duration = shownDuration(call);
  const answeredBy = shownAnsweredBy(call);
  const ring = shownRingDuration(call);
  const sid = call.sid;
  return (
    '{"sid":"' +
    sid +
    '","InstanceId":"' +
    call.instanceId +
    '","date_created":"' +
    rfc2822Date(call.startSec) +
    '","date_updated":"' +
    rfc2822Date(shownUpdatedSec(call)) +
    frame.account +
    jsonString(call.to) +
    ',"from":' +
    jsonString(call.from) +
    ',"phone_number_sid":"' +
    call.phoneNumberSid +
    '","status":' +
    jsonString(shownStatus(call)) +
    ',"start_time":"' +
    isoMillis(shownStartSec(call) * 1000) +
    (endMs === undefined ? '",' : `","end_time":"${isoMillis(endMs)}",`) +
    (duration === undefined ? '' : `"duration":${duration},`) +
    '"price_unit":"USD","direction":' +
    jsonString(call.direction) +
    (answeredBy === undefined ? ',' : `,"answered_by":${jsonString(answeredBy)},`) +
    API_VERSION_MEMBER +
    jsonString(call.callerName) +
    frame.uri +
    sid +
    (ring === undefined ? frame.uriEnd : `${frame.uriEndRing}${ring},`) +
    frame.notifications +
    sid +
    frame.recordings +
    sid +
    frame.end
  );
}

/** The text of a call's JSON that depends on its account alone, between the per-call values. */
interface CallFrame {
  accountSid: string;
  /** From the end of date_updated to the opening quote of `to`. */
  account: string;
  /** From the end of caller_name's value to the sid in `uri`. */
  uri: string;
  /** From that sid to the next member, `subresource_uris`. */
  uriEnd: string;
  /** From that sid to the value of `ring_duration`, where the call has one. */
  uriEndRing: string;
  /** From `ring_duration`'s place to the sid in the notifications' URI. */
  notifications: string;
  /** From that sid to the sid in the recordings' URI. */
  recordings: string;
  /** From that sid to the end of the call. */
  end: string;
}

/** From the comma after answered_by's place to caller_name's value: the same for every call. */
const API_VERSION_MEMBER = `"api_version":"${API_VERSION}","caller_name":`;

/** The last account's frame: a page's items share one account, but for SubAccounts pages. */
let lastFrame: CallFrame | null = null;

function frameOf(accountSid: string): CallFrame {
  if (lastFrame?.accountSid !== accountSid) {
    const uris = callUriParts(accountSid, '.json');
    lastFrame = {
      accountSid,
      account: `","account_sid":"${accountSid}","to":`,
      uri: `,"uri":"${uris.calls}`,
      uriEnd: `${uris.own}",`,
      uriEndRing: `${uris.own}","ring_duration":`,
      notifications: `"subresource_uris":{"notifications":"${uris.calls}`,
      recordings: `${uris.notifications}","recordings":"${uris.calls}`,
      end: `${uris.recordings}"}}`,
    };
  }
  return lastFrame;
}

/** A call frame's pieces as bytes, with the constant pieces between the per-call values. */
interface CallFrameBytes {
  accountSid: string;
  account: Buffer;
  uri: Buffer;
  uriEnd: Buffer;
  uriEndRing: Buffer;
  notifications: Buffer;
  recordings: Buffer;
  end: Buffer;
  /** The pieces' bytes together: what room a call needs besides its values. */
  fixed: number;
}

const ascii = (text: string) => Buffer.from(text, 'latin1');
const OPEN = ascii('{"sid":"');
const INSTANCE = ascii('","InstanceId":"');
const CREATED = ascii('","date_created":"');
const UPDATED = ascii('","date_updated":"');
const FROM = ascii(',"from":');
const PHONE = ascii(',"phone_number_sid":"');
const STATUS = ascii('","status":');
const START = ascii(',"start_time":"');
const END = ascii('","end_time":"');
const QUOTE_COMMA = ascii('",');
const DURATION = ascii('"duration":');
const DIRECTION = ascii('"price_unit":"USD","direction":');
const ANSWERED = ascii(',"answered_by":');
const API_VERSION_BYTES = ascii(API_VERSION_MEMBER);
const COMMA = 0x2c;
/** Bytes of the pieces every call writes, and room for its dates and numbers. */
const CONSTANT_ROOM =
  [OPEN, INSTANCE, CREATED, UPDATED, FROM, PHONE, STATUS, START, END, QUOTE_COMMA, DURATION, DIRECTION, ANSWERED]
    .map((b) => b.length)
    .reduce((a, b) => a + b, 0) +
  API_VERSION_BYTES.length +
  4 * 48 +
  3 * 32;

let lastFrameBytes: CallFrameBytes | null = null;

function frameBytesOf(accountSid: string): CallFrameBytes {
  if (lastFrameBytes?.accountSid !== accountSid) {
    const f = frameOf(accountSid);
    const parts = [f.account, f.uri, f.uriEnd, f.uriEndRing, f.notifications, f.recordings, f.end].map((t) =>
      Buffer.from(t, 'utf8'),
    );
    const [account, uri, uriEnd, uriEndRing, notifications, recordings, end] = parts as [
      Buffer,
      Buffer,
      Buffer,
      Buffer,
      Buffer,
      Buffer,
      Buffer,
    ];
    const fixed = parts.reduce((n, b) => n + b.length, 0);
    lastFrameBytes = { accountSid, account, uri, uriEnd, uriEndRing, notifications, recordings, end, fixed };
  }
  return lastFrameBytes;
}

/**
 * `callJson(call, accountSid)` written as bytes into `sink`: the same bytes, with no string
 * made. What a cold page of a huge account writes (a walk shows each call once): the text of a
 * call is a `+` chain of some thirty pieces, and copying it out flat into the page cost as much
 * again as writing it. Here each constant piece is copied from bytes encoded once per account,
 * each repeated text (a party, a name, a status) from bytes encoded once (`quotedBytes`), the
 * sid once as Latin-1 (hex, as every sid is) and three times more from where it was written,
 * and dates and numbers are written digit by digit.
 * @example writeCallJson(call, 'AC1', sink) // sink holds '{"sid":"ID…-CA…","InstanceId":"ID…",…}'
 */
export function writeCallJson(call: CallRecord, accountSid: string, sink: ByteSink): void {
  if (call.row !== undefined) {
    sink.text(callRowJson(asAccount(call.row, accountSid)));
    return;
  }
  const frame = frameBytesOf(accountSid);
  const endMs = shownEndMs(call);
  const duration = shownDuration(call);
  const answeredBy = shownAnsweredBy(call);
  const ring = shownRingDuration(call);
  const sid = call.sid;
  const instance = plainBytes(call.instanceId);
  const to = quotedBytes(call.to);
  const from = quotedBytes(call.from);
  const phone = plainBytes(call.phoneNumberSid);
  const status = quotedBytes(shownStatus(call));
  const direction = quotedBytes(call.direction);
  const answered = answeredBy === undefined ? null : quotedBytes(answeredBy);
  const caller = quotedBytes(call.callerName);
  sink.room(
    CONSTANT_ROOM +
      frame.fixed +
      4 * sid.length +
      instance.length +
      to.length +
      from.length +
      phone.length +
      status.length +
      direction.length +
      (answered === null ? 0 : answered.length) +
      caller.length,
  );
  const b = sink.buf;
  let at = sink.at;
  at = put(b, at, OPEN);
  const sidAt = at;
  const sidEnd = at + b.write(sid, at, 'latin1');
  at = put(b, sidEnd, INSTANCE);
  at = put(b, at, instance);
  at = writeRfc2822(b, put(b, at, CREATED), call.startSec);
  at = writeRfc2822(b, put(b, at, UPDATED), shownUpdatedSec(call));
  at = put(b, at, frame.account);
  at = put(b, at, to);
  at = put(b, at, FROM);
  at = put(b, at, from);
  at = put(b, at, PHONE);
  at = put(b, at, phone);
  at = put(b, at, STATUS);
  at = put(b, at, status);
  at = writeIsoMillis(b, put(b, at, START), shownStartSec(call) * 1000);
  if (endMs !== undefined) {
    at = writeIsoMillis(b, put(b, at, END), endMs);
  }
  at = put(b, at, QUOTE_COMMA);
  if (duration !== undefined) {
    at = writeNumber(b, put(b, at, DURATION), duration);
    b[at++] = COMMA;
  }
  at = put(b, at, DIRECTION);
  at = put(b, at, direction);
  if (answered !== null) {
    at = put(b, at, ANSWERED);
    at = put(b, at, answered);
  }
  b[at++] = COMMA;
  at = put(b, at, API_VERSION_BYTES);
  at = put(b, at, caller);
  at = put(b, at, frame.uri);
  at = again(b, at, sidAt, sidEnd);
  if (ring === undefined) {
    at = put(b, at, frame.uriEnd);
  } else {
    at = writeNumber(b, put(b, at, frame.uriEndRing), ring);
    b[at++] = COMMA;
  }
  at = put(b, at, frame.notifications);
  at = again(b, at, sidAt, sidEnd);
  at = put(b, at, frame.recordings);
  at = again(b, at, sidAt, sidEnd);
  sink.at = put(b, at, frame.end);
}

/** Copies what `b` holds at [from, to) to `at` (the sid, written once); returns the end. */
function again(b: Buffer, at: number, from: number, to: number): number {
  b.copyWithin(at, from, to);
  return at + to - from;
}

/** Copies `bytes` into `b` at `at`; returns the end. */
function put(b: Buffer, at: number, bytes: Buffer): number {
  b.set(bytes, at);
  return at + bytes.length;
}

/**
 * A call as production's XML writes it (`CallDetailRecordConverter.marshal`): every member but
 * InstanceId is written even when null (an empty element), so the XML has ParentCallSid,
 * ForwardedFrom, and the end_time, duration, answered_by and ring_duration its JSON leaves out;
 * it has `Price`, which the JSON never shows (the emulator keeps the integer part production
 * sorts by, so it is written `N.00`; production's own calls all store `0.00`); `Uri` and the
 * sub-resources carry no `.json`; `Ring_duration` comes last, after the sub-resources.
 * @example callXml(call, 'AC1') // ['Call', [['Sid', 'ID…-CA…'], ['InstanceId', 'ID…'], …, ['Ring_duration', null]]]
 */
export function callXml(call: CallRecord, accountSid: string): XmlField {
  if (call.row !== undefined) return callRowXml(asAccount(call.row, accountSid));
  const endMs = shownEndMs(call);
  const duration = shownDuration(call);
  const ring = shownRingDuration(call);
  return [
    'Call',
    [
      ['Sid', call.sid],
      ['InstanceId', call.instanceId],
      ['DateCreated', rfc2822Date(call.startSec)],
      ['DateUpdated', rfc2822Date(shownUpdatedSec(call))],
      ['ParentCallSid', null],
      ['AccountSid', accountSid],
      ['To', call.to],
      ['From', call.from],
      ['PhoneNumberSid', call.phoneNumberSid],
      ['Status', shownStatus(call)],
      ['StartTime', isoMillis(shownStartSec(call) * 1000)],
      ['EndTime', endMs === undefined ? null : isoMillis(endMs)],
      ['Duration', duration === undefined ? null : String(duration)],
      ['Price', `${call.priceInt}.00`],
      ['PriceUnit', 'USD'],
      ['Direction', call.direction],
      ['AnsweredBy', shownAnsweredBy(call) ?? null],
      ['ApiVersion', API_VERSION],
      ['ForwardedFrom', null],
      ['CallerName', call.callerName],
      ['Uri', callUri(accountSid, call.sid, '')],
      [
        'SubresourceUris',
        [
          ['Notifications', callSubresourceUri(accountSid, call.sid, 'Notifications', '')],
          ['Recordings', callSubresourceUri(accountSid, call.sid, 'Recordings', '')],
        ],
      ],
      ['Ring_duration', ring === undefined ? null : String(ring)],
    ],
  ];
}

/** A call as the API shows it: the wire shape `callJson` writes, keys in the same order. */
export interface Call {
  sid: string;
  InstanceId: string;
  date_created: string;
  date_updated: string;
  account_sid: string;
  to: string;
  from: string;
  phone_number_sid: string;
  /**
   * Production's texts: an inbound call's in lower case (`ringing`, `in-progress`, `completed`,
   * `busy`, `no-answer`, `failed`, `canceled`); an outbound call's as the enum names (`QUEUED`,
   * `RINGING`, `BUSY`, `NO_ANSWER`, `FAILED`, `NOT_FOUND`) but for `in-progress`, `completed`
   * and `canceled`.
   */
  status: string;
  /** The answer once answered, else the creation. */
  start_time: string;
  /** Absent until the call ends, and on outbound calls that end busy, no-answer, failed or not-found. */
  end_time?: string;
  /** Talk time; ring time for inbound calls not answered and canceled calls; absent where production writes none. */
  duration?: number;
  price_unit: string;
  direction: 'inbound' | 'outbound-api' | 'outbound-dial';
  /** Outbound calls once answered: the callee. */
  answered_by?: string;
  api_version: string;
  caller_name: string;
  uri: string;
  /** Outbound calls once answered (seconds from creation to answer), and busy ones (how long they rang). */
  ring_duration?: number;
  subresource_uris: { notifications: string; recordings: string };
}
