import type { NotificationRecord } from '../generators/notification';
import { isoMillis, rfc2822Date } from './dates';
import { asAccount, notificationRowJson, notificationRowXml } from './rows';
import { API_VERSION, errorInfoUri, notificationUri } from './uris';
import type { XmlField } from './xml';

/**
 * A notification in the wire shape, keys in production's order (`NotificationConverter`):
 * `log` and `error_code` are numbers, `message_date` is Joda's ISO form of a database
 * `DATETIME` (whole seconds, `.000`), and `uri` ends in `.json`. Production leaves null members
 * out (its Gson does not serialize nulls); the generated notifications have none.
 * @example notificationJson(n, 'AC1', 'http://127.0.0.1:8080/call') // '{"sid":"NO…","date_created":"Sun, 1 Jun 2025 11:58:31 +0000",…,"log":1,"error_code":21402,…}'
 */
export function notificationJson(n: NotificationRecord, accountSid: string, fileBase: string): string {
  if (n.row !== undefined) return notificationRowJson(asAccount(n.row, accountSid));
  const date = rfc2822Date(n.createdSec);
  return JSON.stringify({
    sid: n.sid,
    date_created: date,
    date_updated: date,
    account_sid: accountSid,
    call_sid: n.callSid,
    api_version: API_VERSION,
    log: n.log,
    error_code: n.errorCode,
    more_info: errorInfoUri(fileBase, n.errorCode),
    message_text: n.messageText,
    message_date: isoMillis(n.createdSec * 1000),
    request_url: n.requestUrl,
    request_method: n.requestMethod,
    request_variables: n.requestVariables,
    response_headers: n.responseHeaders,
    response_body: n.responseBody,
    uri: notificationUri(accountSid, n.sid),
  });
}

/**
 * A notification as production's XML writes it (`NotificationConverter.marshal`): the JSON's
 * members in its order, numbers as text, `Uri` without `.json`.
 * @example notificationXml(n, 'AC1', base) // ['Notification', [['Sid', 'NO…'], …, ['Log', '1'], ['ErrorCode', '21402'], …]]
 */
export function notificationXml(n: NotificationRecord, accountSid: string, fileBase: string): XmlField {
  if (n.row !== undefined) return notificationRowXml(asAccount(n.row, accountSid));
  const date = rfc2822Date(n.createdSec);
  return [
    'Notification',
    [
      ['Sid', n.sid],
      ['DateCreated', date],
      ['DateUpdated', date],
      ['AccountSid', accountSid],
      ['CallSid', n.callSid],
      ['ApiVersion', API_VERSION],
      ['Log', String(n.log)],
      ['ErrorCode', String(n.errorCode)],
      ['MoreInfo', errorInfoUri(fileBase, n.errorCode)],
      ['MessageText', n.messageText],
      ['MessageDate', isoMillis(n.createdSec * 1000)],
      ['RequestUrl', n.requestUrl],
      ['RequestMethod', n.requestMethod],
      ['RequestVariables', n.requestVariables],
      ['ResponseHeaders', n.responseHeaders],
      ['ResponseBody', n.responseBody],
      ['Uri', notificationUri(accountSid, n.sid, '')],
    ],
  ];
}

/** A notification as the API shows it: the wire shape `notificationJson` writes. */
export interface Notification {
  sid: string;
  date_created: string;
  date_updated: string;
  account_sid: string;
  call_sid: string;
  api_version: string;
  /** 0 for an error, 1 for a warning. */
  log: number;
  error_code: number;
  more_info: string;
  message_text: string;
  /** ISO 8601 with milliseconds and zone: `2025-05-23T02:44:27.000Z`. */
  message_date: string;
  request_url: string;
  request_method: string;
  request_variables: string;
  response_headers: string;
  response_body: string;
  uri: string;
}
