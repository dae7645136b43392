import { problems } from '../errors';
import { javaDouble, parseRfc2822, rfc2822Date } from '../format/dates';
import type { Recording } from '../format/recording';
import { insertedRecordingDefaults } from '../generators/inserted';
import type { RecordingRecord } from '../generators/recording';
import { recordingOfRow } from '../generators/verbatim';
import { isObject, type Reader } from '../input/fields';
import { rowAsJson } from '../input/restcomm-tables';
import type { Account } from '../store/world';
import { recordReader, rowInput } from './call-input';

export const RECORDING_FIELDS = [
  'sid',
  'call_sid',
  'date_created',
  'date_updated',
  'account_sid',
  'duration',
  'api_version',
] as const;
const DERIVED = ['uri', 'file_uri'];

/** What a recording insert may give: its fields but `uri` and `file_uri`; `duration` also as a number. */
export type RecordingInput = Partial<Omit<Recording, 'uri' | 'file_uri' | 'duration'>> & { duration?: string | number };

/**
 * The recording an admin insert describes. `call_sid` must be a live call of the account
 * (default: the newest answered call), and the recording must lie inside it, as generated ones
 * do: created after the call starts and no later than it ends, lasting no longer than the time
 * since the start. Throws a ValidationError naming the field.
 */
export function recordingFromInput(
  account: Account,
  raw: unknown,
  at: string,
  k = account.recordings.nextInsert,
): RecordingRecord {
  // Production's own rows may name a call that is not there, as its data does.
  if (isObject(raw) && raw['row'] !== undefined)
    return recordingOfRow(rowInput(account, raw, at, 'restcomm_recordings'));
  const r: Reader = recordReader(account, raw, at, RECORDING_FIELDS, DERIVED);
  const defaults = insertedRecordingDefaults(account.profile, k);

  const callSid = r.string('call_sid');
  let callId: number | undefined;
  if (callSid !== undefined) {
    callId = account.calls.find(callSid);
    if (callId === undefined) r.fail('call_sid', problems.noCallInAccount(callSid, account.profile.sid));
  } else {
    const order = account.calls.order(null);
    for (let p = 0; p < Math.min(order.length, 1000) && callId === undefined; p++) {
      const c = account.calls.get(order.at(p));
      if (c.status === 'completed' && (c.duration ?? 0) > 0) callId = order.at(p);
    }
    if (callId === undefined) r.fail('call_sid', problems.noAnsweredCall);
  }
  const call = account.calls.get(callId);
  const endSec = Math.floor(call.endMs / 1000);
  // Recorded from the answer on: start_time is the answer, and only an answered call talks.
  const answerSec = call.startSec + call.ringSec;
  if (call.status !== 'completed') r.fail('call_sid', problems.unansweredCall(call.sid));
  if (endSec <= answerSec) r.fail('call_sid', problems.tooShortCall(call.sid));

  const sid = r.string('sid', /^RE[0-9a-f]{32}$/, problems.recordingSid) ?? defaults.sid;
  if (account.recordings.find(sid) !== undefined) r.fail('sid', problems.taken(sid));

  let given: number | undefined;
  if (r.has('duration')) {
    const v = r.body['duration'];
    const text = typeof v === 'number' ? String(v) : v;
    if (typeof text !== 'string' || !/^\d{1,7}(\.\d{1,5})?$/.test(text) || Number(text) <= 0) {
      r.fail('duration', problems.recordingDuration(v));
    }
    given = Number(text);
  }
  // The generated creation time fits a given duration: late enough in the call to hold it.
  const drawn = answerSec + Math.max(1, Math.round(defaults.share * (endSec - answerSec)));
  let createdSec = Math.min(endSec, Math.max(drawn, answerSec + Math.ceil(given ?? 0)));
  let offsetMin = defaults.offsetMin;
  const createdText = r.string('date_created');
  if (createdText !== undefined) {
    const created = parseRfc2822(createdText);
    if (created === undefined) r.fail('date_created', problems.recordingCreated(createdText));
    createdSec = created.sec;
    offsetMin = created.offsetMin;
    if (createdSec <= answerSec || createdSec > endSec) {
      r.fail('date_created', problems.insideCall(call.sid, rfc2822Date(answerSec), rfc2822Date(endSec)));
    }
  }
  const updatedText = r.string('date_updated');
  if (updatedText !== undefined && updatedText !== rfc2822Date(createdSec, offsetMin)) {
    r.fail('date_updated', problems.equalsCreated(rfc2822Date(createdSec, offsetMin)));
  }
  const room = Math.min(createdSec - answerSec, call.duration ?? 0);
  const duration = given ?? Math.max(0.1, Math.round(room * defaults.share * 100000) / 100000);
  if (duration > room) r.fail('duration', problems.recordingRoom(javaDouble(room)));
  return { sid, callSid: call.sid, createdSec, offsetMin, duration };
}

/** An inserted recording in input form, for the state export. */
export function recordingAsInput(rec: RecordingRecord): Record<string, unknown> {
  if (rec.row !== undefined) return { row: rowAsJson('restcomm_recordings', rec.row) };
  return {
    sid: rec.sid,
    call_sid: rec.callSid,
    date_created: rfc2822Date(rec.createdSec, rec.offsetMin),
    duration: javaDouble(rec.duration),
  };
}
