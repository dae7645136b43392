import type { CallDirection, CallRecord, CallStatus } from './call-record';
import type { NotificationRecord } from './notification';
import type { RecordingRecord } from './recording';
import { type CallRow, type NotificationRow, priceKey, type RecordingRow } from './rows';

/*
 * Production's rows as the store's records: the fields every list sorts and filters by, set from
 * the row, and the row itself, which the readings of a call (call-life.ts) and the converters
 * (format/rows.ts) read instead. Creation times keep the row's fraction (an HSQLDB script's
 * milliseconds order rows within a second, as its ORDER BY does).
 */

/**
 * A call row as a call record. A row's status and direction are production's texts, whatever
 * they are (`"outbound"`, a stale `in-progress`): they are kept in the record's fields as given,
 * and only ever read back through `shownStatus` and the row.
 * @example callOfRow(row).from // row.sender
 */
export function callOfRow(row: CallRow): CallRecord {
  return {
    sid: row.sid,
    instanceId: row.instanceid ?? '',
    phoneNumberSid: row.phone_number_sid ?? '',
    startSec: row.date_created / 1000,
    ringSec: 0,
    endMs: row.end_time ?? row.date_updated ?? row.date_created,
    // NULL (an HSQLDB row's) sorts as the empty text: first ascending, last descending, as NULL.
    from: row.sender ?? '',
    to: row.recipient ?? '',
    direction: (row.direction ?? '') as CallDirection,
    status: (row.status ?? '') as CallStatus,
    duration: row.duration,
    priceInt: priceKey(row.price),
    callerName: row.caller_name ?? '',
    row,
  };
}

/** A recording row as a recording record (dates in +0000: production's JVM runs in UTC). */
export function recordingOfRow(row: RecordingRow): RecordingRecord {
  return {
    sid: row.sid,
    callSid: row.call_sid ?? '',
    createdSec: row.date_created / 1000,
    offsetMin: 0,
    duration: row.duration ?? Number.NEGATIVE_INFINITY,
    row,
  };
}

/** A notification row as a notification record. */
export function notificationOfRow(row: NotificationRow): NotificationRecord {
  return {
    sid: row.sid,
    callSid: row.call_sid ?? '',
    createdSec: row.date_created / 1000,
    log: row.log ?? 0,
    errorCode: row.error_code ?? 0,
    messageText: row.message_text ?? '',
    requestUrl: row.request_url ?? '',
    requestMethod: row.request_method ?? '',
    requestVariables: row.request_variables ?? '',
    responseHeaders: row.response_headers ?? '',
    responseBody: row.response_body ?? '',
    row,
  };
}
