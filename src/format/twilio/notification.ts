import type { NotificationRecord } from '../../generators/notification';
import { TWILIO_VERSION, twilioErrorInfo, twilioNotificationUri } from '../uris';
import { twilioDate, twilioSid } from './fields';

/**
 * A notification of a call's `Notifications.json` (`api.v2010.account.call.call_notification`):
 * `error_code` and `log` are strings there; `log` 0 an error, 1 a warning, as Restcomm's.
 * @example twilioNotificationJson(n, 'AC1') // '{"account_sid":"AC1",…,"error_code":"11200","log":"0",…}'
 */
export function twilioNotificationJson(n: NotificationRecord, accountSid: string): string {
  const created = twilioDate(n.createdSec);
  const callSid = twilioSid(n.callSid);
  return JSON.stringify({
    account_sid: accountSid,
    api_version: TWILIO_VERSION,
    call_sid: callSid,
    date_created: created,
    date_updated: created,
    error_code: String(n.errorCode),
    log: String(n.log),
    message_date: created,
    message_text: n.messageText,
    more_info: twilioErrorInfo(n.errorCode),
    request_method: n.requestMethod === 'GET' ? 'GET' : 'POST',
    request_url: n.requestUrl,
    sid: n.sid,
    uri: twilioNotificationUri(accountSid, callSid, n.sid),
  });
}
