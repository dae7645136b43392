import type { RecordingRecord } from '../generators/recording';
import { javaDouble, rfc2822Date } from './dates';
import { asAccount, recordingRowJson, recordingRowXml } from './rows';
import { API_VERSION, recordingFileUri, recordingUri } from './uris';
import type { XmlField } from './xml';

/**
 * A recording in the wire shape, keys in production's order (`RecordingConverter`); `duration`
 * is a string, as production writes `Double.toString`. A template for speed, as `callJson`;
 * `fileBase` (the public URL and the mount, see `fileBaseOf`) is the one free-text part, so it goes through `JSON.stringify`.
 * @example recordingJson(rec, 'AC1', 'http://127.0.0.1:8080/call') // '{"sid":"RE…","date_created":"Mon, 6 Jan 2014 08:51:07 +0900",…,"duration":"14.70275",…}'
 */
export function recordingJson(rec: RecordingRecord, accountSid: string, fileBase: string): string {
  if (rec.row !== undefined) return recordingRowJson(asAccount(rec.row, accountSid), fileBase);
  const date = rfc2822Date(rec.createdSec, rec.offsetMin);
  return (
    `{"sid":"${rec.sid}","date_created":"${date}","date_updated":"${date}","account_sid":"${accountSid}",` +
    `"call_sid":"${rec.callSid}","duration":"${javaDouble(rec.duration)}","api_version":"${API_VERSION}",` +
    `"uri":"${recordingUri(accountSid, rec.sid)}","file_uri":${JSON.stringify(recordingFileUri(fileBase, accountSid, rec.sid))}}`
  );
}

/**
 * A recording as production's XML writes it (`RecordingConverter.marshal`): the JSON's members in
 * its order, `Uri` without `.json`.
 * @example recordingXml(rec, 'AC1', base) // ['Recording', [['Sid', 'RE…'], …, ['FileUri', 'http://…/RE….wav']]]
 */
export function recordingXml(rec: RecordingRecord, accountSid: string, fileBase: string): XmlField {
  if (rec.row !== undefined) return recordingRowXml(asAccount(rec.row, accountSid), fileBase);
  const date = rfc2822Date(rec.createdSec, rec.offsetMin);
  return [
    'Recording',
    [
      ['Sid', rec.sid],
      ['DateCreated', date],
      ['DateUpdated', date],
      ['AccountSid', accountSid],
      ['CallSid', rec.callSid],
      ['Duration', javaDouble(rec.duration)],
      ['ApiVersion', API_VERSION],
      ['Uri', recordingUri(accountSid, rec.sid, '')],
      ['FileUri', recordingFileUri(fileBase, accountSid, rec.sid)],
    ],
  ];
}

/** A recording as the API shows it: the wire shape `recordingJson` writes. */
export interface Recording {
  sid: string;
  date_created: string;
  date_updated: string;
  account_sid: string;
  call_sid: string;
  /** A decimal with a fractional part, as a string: `"14.70275"`. */
  duration: string;
  api_version: string;
  uri: string;
  file_uri: string;
}
