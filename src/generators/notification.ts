import type { Stream } from '../random/stream';
import type { AccountProfile, WorldContext } from './account';
import { generateCall } from './call';
import type { CallCore } from './call-record';
import type { NotificationRow } from './rows';
import { newerStartSec } from './timeline';

/** A notification as the store knows it; `format/notification.ts` turns it into the wire shape. */
export interface NotificationRecord {
  sid: string;
  callSid: string;
  /** date_created (and date_updated, and message_date), whole seconds since the epoch. */
  createdSec: number;
  /** 0 for an error, 1 for a warning: production's ERROR_NOTIFICATION and WARNING_NOTIFICATION. */
  log: number;
  errorCode: number;
  messageText: string;
  /** The application URL the call was fetching, and how. */
  requestUrl: string;
  requestMethod: string;
  /** The parameters sent to it, form-encoded as production stores them. */
  requestVariables: string;
  /** The answer's headers, form-encoded as production stores them. */
  responseHeaders: string;
  responseBody: string;
  /** A row of production's own data: what its converters print (see `CallRecord.row`). */
  row?: NotificationRow;
}

/** One notification every this many seeded calls at most: notification j is on one of calls 8j…8j+7. */
export const CALLS_PER_NOTIFICATION = 8;

/** How many notifications an account of `calls` seeded calls can hold (one per full block of calls). */
export function notificationCapacity(calls: number): number {
  return Math.floor(calls / CALLS_PER_NOTIFICATION);
}

/** The call notification `j` is about: a seeded one of its block of CALLS_PER_NOTIFICATION. @example notificationCall(account, 0) // 5 */
export function notificationCall(account: AccountProfile, j: number): number {
  const offset = account.streams.seeded.notifications.at(j).int(0, CALLS_PER_NOTIFICATION - 1);
  return j * CALLS_PER_NOTIFICATION + offset;
}

/** The notification about call `i`, if it has one among the first `count`. */
export function notificationOfCall(account: AccountProfile, i: number, count: number): number | undefined {
  const j = Math.floor(i / CALLS_PER_NOTIFICATION);
  return j < count && notificationCall(account, j) === i ? j : undefined;
}

/**
 * What the interpreter complains of, as production words it (`VoiceInterpreter`,
 * `BaseVoiceInterpreter`): log level, error code and message, `%s` standing for a seeded value.
 */
const KINDS: readonly { log: number; code: number; text: string; value: (s: Stream, url: string) => string }[] = [
  { log: 1, code: 21402, text: 'URL Not Found : %s', value: (_s, url) => url },
  { log: 0, code: 11100, text: '%s is an invalid URI.', value: (s) => s.pick(['rtsp:/bad', 'htp://x', ':8080/play']) },
  {
    log: 0,
    code: 12400,
    text: '%s',
    value: (s) => s.pick(['Connection refused', 'Read timed out', 'Connect to host timed out']),
  },
  {
    log: 1,
    code: 13710,
    text: '%s is not a valid HTTP method for <Redirect>',
    value: (s) => s.pick(['PUT', 'get ', 'FETCH']),
  },
  { log: 1, code: 13510, text: '%s is an invalid loop value.', value: (s) => String(-s.int(1, 5)) },
  { log: 1, code: 13313, text: '%s is not a valid timeout value', value: (s) => s.pick(['0', '-1', 'ten']) },
  { log: 1, code: 13612, text: '%s is not a valid maxLength value', value: (s) => s.pick(['0', 'x']) },
  { log: 0, code: 11101, text: 'Callback attribute value is null or empty%s', value: () => '' },
  // Production's own spelling.
  { log: 1, code: 12300, text: 'Invalide content-type.%s', value: () => '' },
];

const HOSTS = ['app.example.com', 'voice.example.net', 'ivr.example.org'] as const;
const PATHS = ['/voice/answer', '/rcml/menu.xml', '/ivr/start', '/hooks/incoming'] as const;

/** Form encoding as Java's URLEncodedUtils writes it: spaces as `+`, the rest percent-encoded. */
function formEncode(pairs: readonly (readonly [string, string])[]): string {
  const enc = (v: string) =>
    encodeURIComponent(v)
      .replace(/%20/g, '+')
      .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
}

/**
 * Notification `j` of the account: a pure function of (seed, account, index), through its call.
 * It is written while its call runs, before the next newer call starts, so notifications fall in
 * time as `j` grows, like calls, and need no sort for the default order.
 */
export function generateNotification(world: WorldContext, account: AccountProfile, j: number): NotificationRecord {
  const i = notificationCall(account, j);
  const call: CallCore = generateCall(world, account, i);
  const newerStart = newerStartSec(world, account, i);
  const lo = call.startSec;
  const hi = Math.max(lo, Math.min(Math.floor(call.endMs / 1000), newerStart - 1));
  const s = account.streams.seeded.notifications.at(j);
  s.int(0, CALLS_PER_NOTIFICATION - 1);
  const createdSec = s.int(lo, hi);
  const requestUrl = `https://${s.pick(HOSTS)}${s.pick(PATHS)}`;
  const kind = s.pick(KINDS);
  const requestMethod = s.pick(['POST', 'GET']);
  const requestVariables = formEncode([
    ['CallSid', call.sid],
    ['InstanceId', call.instanceId],
    ['AccountSid', account.sid],
    ['From', call.from],
    ['To', call.to],
    ['CallStatus', 'in-progress'],
    ['ApiVersion', '2012-04-24'],
    ['Direction', call.direction],
  ]);
  const notFound = kind.code === 21402;
  const body = notFound
    ? '<html><body><h1>404 Not Found</h1></body></html>'
    : '<Response><Say>Thank you</Say></Response>';
  const responseHeaders = formEncode([
    ['Content-Type', notFound ? 'text/html' : 'text/xml;charset=UTF-8'],
    ['Content-Length', String(body.length)],
  ]);
  return {
    sid: `NO${account.sids.seeded.notifications.encode(j)}`,
    callSid: call.sid,
    createdSec,
    log: kind.log,
    errorCode: kind.code,
    messageText: kind.text.replace('%s', kind.value(s, requestUrl)),
    requestUrl,
    requestMethod,
    requestVariables,
    responseHeaders,
    responseBody: body,
  };
}

/** The index of the seeded notification with this sid, or undefined. */
export function seededNotificationIndex(account: AccountProfile, sid: string, count: number): number | undefined {
  const j = /^NO[0-9a-f]{32}$/.test(sid) ? account.sids.seeded.notifications.decode(sid.slice(2)) : undefined;
  return j !== undefined && j < count ? j : undefined;
}
