import type { AccountRow, CallRow, NotificationRow, RecordingRow } from '../generators/rows';
import { DEFAULT_ORGANIZATION } from './account';
import { isoMillis, javaDouble, rfc2822Date } from './dates';
import { API_VERSION } from './uris';
import type { XmlField } from './xml';

/*
 * Production's converters applied to its own rows, member by member as they write them. Gson
 * leaves null members out of the JSON; the XML writes most of them as empty elements. The URIs
 * a row stores are printed as stored (JSON adds `.json`); the sub-resources are built, from the
 * converter's API version and the row's account and sid. Dates: `date_created` and
 * `date_updated` through `SimpleDateFormat` (whole seconds, +0000: production's JVM runs in UTC),
 * the other times through Joda's `toString()` (milliseconds, `Z`).
 */

/**
 * A row as the account `accountSid` shows it: its own, or a sandbox's copy of its parent's
 * rows, which names the sandbox wherever the row names the parent (its account and its URIs).
 * @example asAccount({ account_sid: 'AC1', uri: '/2012-04-24/Accounts/AC1/Calls/CA1', … }, 'AC2').uri // '/2012-04-24/Accounts/AC2/Calls/CA1'
 */
export function asAccount<R extends { account_sid: string; uri: string | null }>(row: R, accountSid: string): R {
  if (row.account_sid === accountSid) return row;
  const uri = row.uri?.split(`/Accounts/${row.account_sid}`).join(`/Accounts/${accountSid}`) ?? null;
  return { ...row, account_sid: accountSid, uri };
}

/** The seconds of a DATETIME's milliseconds, as `SimpleDateFormat` prints them. */
const rfc = (ms: number | null) => (ms === null ? null : rfc2822Date(Math.floor(ms / 1000)));

/** A Joda time of a DATETIME, or null. */
const iso = (ms: number | null) => (ms === null ? null : isoMillis(ms));

/** A stored URI as the JSON prints it: with `.json`, or null (Gson leaves it out). */
const jsonUri = (uri: string | null) => (uri === null ? null : `${uri}.json`);

/** JSON text of members, null ones left out (Gson's default). */
function jsonOf(members: readonly (readonly [string, unknown])[]): string {
  return JSON.stringify(Object.fromEntries(members.filter(([, v]) => v !== null && v !== undefined)));
}

/** `prefix(cdr)` of `CallDetailRecordConverter`: its sub-resources hang below it. */
const callPrefix = (row: CallRow) => `/${API_VERSION}/Accounts/${row.account_sid}/Calls/${row.sid}`;

/**
 * A price as Java's `BigDecimal.toString()` prints the column's text (the DAO reads it with
 * `new BigDecimal(text)`): a leading `+` goes, a bare fraction gets its zero.
 * @example javaDecimal('+.50') // '0.50'
 */
export function javaDecimal(text: string): string {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (m === null) return text;
  const whole = m[2] === '' ? '0' : (m[2] as string);
  const fraction = m[3] === undefined || m[3] === '' ? '' : `.${m[3]}`;
  return `${m[1] === '-' ? '-' : ''}${whole}${fraction}`;
}

/**
 * A call row as `CallDetailRecordConverter.serialize` writes it. `InstanceId` only when the row
 * has a non-empty one (an older `CA…` sid has none); `parent_call_sid`, `phone_number_sid`,
 * `start_time`, `end_time`, `duration`, `answered_by`, `forwarded_from`, `caller_name` and
 * `ring_duration` where the row has them. `price_unit` comes from a column production's schema
 * does not have, so its own rows never show one; `priceUnit` is the spec's (generated calls show
 * `USD`, see `callJson`).
 * @example callRowJson(row) // '{"sid":"CA01a0…","date_created":"Fri, 23 Aug 2013 14:30:07 +0000",…,"uri":"/2012-04-24/Accounts/ACae…/Calls/CA01a0….json","subresource_uris":{…}}'
 */
export function callRowJson(row: CallRow, priceUnit: string | null = null): string {
  const prefix = callPrefix(row);
  return jsonOf([
    ['sid', row.sid],
    ['InstanceId', row.instanceid === '' ? null : row.instanceid],
    ['date_created', rfc(row.date_created)],
    ['date_updated', rfc(row.date_updated)],
    ['parent_call_sid', row.parent_call_sid],
    ['account_sid', row.account_sid],
    ['to', row.recipient],
    ['from', row.sender],
    ['phone_number_sid', row.phone_number_sid],
    ['status', row.status],
    ['start_time', iso(row.start_time)],
    ['end_time', iso(row.end_time)],
    ['duration', row.duration],
    ['price_unit', priceUnit],
    ['direction', row.direction],
    ['answered_by', row.answered_by],
    ['api_version', row.api_version],
    ['forwarded_from', row.forwarded_from],
    ['caller_name', row.caller_name],
    ['uri', jsonUri(row.uri)],
    ['ring_duration', row.ring_duration],
    ['subresource_uris', { notifications: `${prefix}/Notifications.json`, recordings: `${prefix}/Recordings.json` }],
  ]);
}

/**
 * A call row as `CallDetailRecordConverter.marshal` writes it: every member an element, empty
 * where NULL, but `InstanceId`, written only where the row has one; `Price` as `BigDecimal`
 * prints it (production throws on a NULL price here; we write it empty); `Uri` as stored;
 * `Ring_duration` last, after the sub-resources.
 * @example callRowXml(row) // ['Call', [['Sid', 'CA01a0…'], ['DateCreated', 'Fri, 23 Aug 2013 14:30:07 +0000'], …]]
 */
export function callRowXml(row: CallRow, priceUnit: string | null = null): XmlField {
  const prefix = callPrefix(row);
  const text = (v: number | null) => (v === null ? null : String(v));
  return [
    'Call',
    [
      ['Sid', row.sid],
      ...(row.instanceid === null || row.instanceid === '' ? [] : [['InstanceId', row.instanceid] as XmlField]),
      ['DateCreated', rfc(row.date_created)],
      ['DateUpdated', rfc(row.date_updated)],
      ['ParentCallSid', row.parent_call_sid],
      ['AccountSid', row.account_sid],
      ['To', row.recipient],
      ['From', row.sender],
      ['PhoneNumberSid', row.phone_number_sid],
      ['Status', row.status],
      ['StartTime', iso(row.start_time)],
      ['EndTime', iso(row.end_time)],
      ['Duration', text(row.duration)],
      ['Price', row.price === null ? null : javaDecimal(row.price)],
      ['PriceUnit', priceUnit],
      ['Direction', row.direction],
      ['AnsweredBy', row.answered_by],
      ['ApiVersion', row.api_version],
      ['ForwardedFrom', row.forwarded_from],
      ['CallerName', row.caller_name],
      ['Uri', row.uri],
      [
        'SubresourceUris',
        [
          ['Notifications', `${prefix}/Notifications`],
          ['Recordings', `${prefix}/Recordings`],
        ],
      ],
      ['Ring_duration', text(row.ring_duration)],
    ],
  ];
}

/** The last origin read from a file base: a page's recordings share one. */
let lastOrigin: { base: string; origin: string } = { base: '', origin: '' };

/**
 * A stored `file_uri` as `UriUtils.resolve` makes it absolute: an absolute one as it stands, a
 * path against production's own scheme, host and port (here the public URL's origin: `fileBase`
 * is it with the dialect's mount).
 * @example resolvedFileUri('/restcomm/recordings/RE1.wav', 'http://127.0.0.1:8080/restcomm') // 'http://127.0.0.1:8080/restcomm/recordings/RE1.wav'
 */
export function resolvedFileUri(fileUri: string, fileBase: string): string {
  if (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(fileUri)) return fileUri;
  if (lastOrigin.base !== fileBase) lastOrigin = { base: fileBase, origin: new URL(fileBase).origin };
  return `${lastOrigin.origin}${fileUri.startsWith('/') ? '' : '/'}${fileUri}`;
}

/**
 * A recording row as `RecordingConverter.serialize` writes it: `duration` as `Double.toString`,
 * `uri` as stored with `.json`, `file_uri` resolved (absent when NULL), and `s3_uri` where the
 * row has one (production's default security level, NONE, shows it).
 * @example recordingRowJson(row, 'http://127.0.0.1:8080/restcomm') // '{"sid":"RE5067…","date_created":"Tue, 5 Jan 2016 08:51:07 +0000",…,"file_uri":"http://instance1.restcomm.com:8080/…"}'
 */
export function recordingRowJson(row: RecordingRow, fileBase: string): string {
  return jsonOf([
    ['sid', row.sid],
    ['date_created', rfc(row.date_created)],
    ['date_updated', rfc(row.date_updated)],
    ['account_sid', row.account_sid],
    ['call_sid', row.call_sid],
    ['duration', row.duration === null ? null : javaDouble(row.duration)],
    ['api_version', row.api_version],
    ['uri', jsonUri(row.uri)],
    ['file_uri', row.file_uri === null ? null : resolvedFileUri(row.file_uri, fileBase)],
    ['s3_uri', row.s3_uri],
  ]);
}

/**
 * A recording row as `RecordingConverter.marshal` writes it: `Uri` as stored, `FileUri` always (empty when NULL).
 * @example recordingRowXml(row, base) // ['Recording', [['Sid', 'RE5067…'], …, ['FileUri', 'http://instance1.restcomm.com:8080/…']]]
 */
export function recordingRowXml(row: RecordingRow, fileBase: string): XmlField {
  return [
    'Recording',
    [
      ['Sid', row.sid],
      ['DateCreated', rfc(row.date_created)],
      ['DateUpdated', rfc(row.date_updated)],
      ['AccountSid', row.account_sid],
      ['CallSid', row.call_sid],
      ['Duration', row.duration === null ? null : javaDouble(row.duration)],
      ['ApiVersion', row.api_version],
      ['Uri', row.uri],
      ['FileUri', row.file_uri === null ? null : resolvedFileUri(row.file_uri, fileBase)],
      ...(row.s3_uri === null ? [] : [['S3Uri', row.s3_uri] as XmlField]),
    ],
  ];
}

/**
 * A notification row as `NotificationConverter.serialize` writes it: `log` and `error_code`
 * numbers, `more_info` as stored, `message_date` through Joda, `uri` as stored with `.json`;
 * the NULL response headers and body left out.
 * @example notificationRowJson(row) // '{"sid":"NO1000…","date_created":"Fri, 30 Aug 2013 16:28:33 +0000",…,"log":1,"error_code":0,…}'
 */
export function notificationRowJson(row: NotificationRow): string {
  return jsonOf([
    ['sid', row.sid],
    ['date_created', rfc(row.date_created)],
    ['date_updated', rfc(row.date_updated)],
    ['account_sid', row.account_sid],
    ['call_sid', row.call_sid],
    ['api_version', row.api_version],
    ['log', row.log],
    ['error_code', row.error_code],
    ['more_info', row.more_info],
    ['message_text', row.message_text],
    ['message_date', iso(row.message_date)],
    ['request_url', row.request_url],
    ['request_method', row.request_method],
    ['request_variables', row.request_variables],
    ['response_headers', row.response_headers],
    ['response_body', row.response_body],
    ['uri', jsonUri(row.uri)],
  ]);
}

/**
 * A notification row as `NotificationConverter.marshal` writes it: numbers as text, `Uri` as stored.
 * @example notificationRowXml(row) // ['Notification', [['Sid', 'NO1000…'], …, ['Log', '1'], ['ErrorCode', '0'], …]]
 */
export function notificationRowXml(row: NotificationRow): XmlField {
  return [
    'Notification',
    [
      ['Sid', row.sid],
      ['DateCreated', rfc(row.date_created)],
      ['DateUpdated', rfc(row.date_updated)],
      ['AccountSid', row.account_sid],
      ...(row.call_sid === null ? [] : [['CallSid', row.call_sid] as XmlField]),
      ['ApiVersion', row.api_version],
      ['Log', row.log === null ? null : String(row.log)],
      ['ErrorCode', row.error_code === null ? null : String(row.error_code)],
      ['MoreInfo', row.more_info],
      ['MessageText', row.message_text],
      ['MessageDate', iso(row.message_date)],
      ['RequestUrl', row.request_url],
      ['RequestMethod', row.request_method],
      ['RequestVariables', row.request_variables],
      ['ResponseHeaders', row.response_headers],
      ['ResponseBody', row.response_body],
      ['Uri', row.uri],
    ],
  ];
}

/**
 * What the account resource prints of an account row (see `AccountFacts` in format/account.ts).
 * @example accountRowFacts(row).status // 'active'
 */
export function accountRowFacts(row: AccountRow) {
  return {
    // Production's own NULL organization would not load (Account.getOrganizationSid throws); the default one is shown.
    organization: row.organization_sid ?? DEFAULT_ORGANIZATION,
    type: row.type,
    status: row.status,
    role: row.role,
    created: rfc(row.date_created) as string,
    updated: rfc(row.date_updated) as string,
    storedUri: row.uri,
  };
}
