import type { CallRecord } from '../generators/call';
import { isoMillis, rfc2822Date } from './dates';
import { API_VERSION, callSubresourceUri, callUri } from './uris';

/**
 * A call in the wire shape, keys in production's order (`CallDetailRecordConverter`). The price
 * is kept for sorting but never written: production's JSON converter does not emit it either.
 * @example callJson(call, 'AC1') // '{"sid":"ID…-CA…","InstanceId":"ID…","date_created":"Fri, 5 Jul 2013 22:15:53 +0000",…}'
 */
export function callJson(call: CallRecord, accountSid: string): string {
  return JSON.stringify({
    sid: call.sid,
    InstanceId: call.instanceId,
    date_created: rfc2822Date(call.startSec),
    date_updated: rfc2822Date(Math.floor(call.endMs / 1000)),
    account_sid: accountSid,
    to: call.to,
    from: call.from,
    phone_number_sid: call.phoneNumberSid,
    status: call.status,
    start_time: isoMillis(call.startSec * 1000),
    end_time: isoMillis(call.endMs),
    duration: call.duration,
    price_unit: 'USD',
    direction: call.direction,
    api_version: API_VERSION,
    caller_name: call.callerName,
    uri: callUri(accountSid, call.sid),
    subresource_uris: {
      notifications: callSubresourceUri(accountSid, call.sid, 'Notifications'),
      recordings: callSubresourceUri(accountSid, call.sid, 'Recordings'),
    },
  });
}
