import { ApiError, messages } from '../errors';
import { javaDouble, parseRfc2822, rfc2822Date } from '../format/dates';
import { API_VERSION } from '../format/uris';
import { insertedRecordingDefaults } from '../generators/inserted';
import type { RecordingRecord } from '../generators/recording';
import type { AccountStore } from '../store/account';
import { asObject, checkKeys, Reader } from './fields';

export const RECORDING_FIELDS = ['sid', 'call_sid', 'date_created', 'date_updated', 'account_sid', 'duration', 'api_version'] as const;
const DERIVED = ['uri', 'file_uri'];

/**
 * The recording an admin insert describes. `call_sid` must be a live call of the account
 * (default: the newest answered call), and the recording must lie inside it, as generated ones
 * do: created after the call starts and no later than it ends, lasting no longer than the time
 * since the start. Throws a 400 naming the field.
 */
export function recordingFromInput(account: AccountStore, raw: unknown, at: string, insertNumber = account.recordings.overlay.nextInsert): RecordingRecord {
  const body = asObject(raw, at);
  checkKeys(body, at, RECORDING_FIELDS, DERIVED);
  const r = new Reader(body, at);
  r.fixed('account_sid', account.profile.sid);
  r.fixed('api_version', API_VERSION);
  const defaults = insertedRecordingDefaults(account.profile, insertNumber);

  const callSid = r.string('call_sid');
  let callId: number | undefined;
  if (callSid !== undefined) {
    callId = account.calls.find(callSid);
    if (callId === undefined) r.fail('call_sid', `no call ${callSid} in account ${account.profile.sid}`);
  } else {
    const order = account.calls.order(null);
    for (let p = 0; p < Math.min(order.length, 1000) && callId === undefined; p++) {
      if (account.calls.get(order.at(p)).duration > 0) callId = order.at(p);
    }
    if (callId === undefined) r.fail('call_sid', 'is needed: the account has no answered call to default to');
  }
  const call = account.calls.get(callId as number);
  const endSec = Math.floor(call.endMs / 1000);
  if (endSec <= call.startSec) r.fail('call_sid', `call ${call.sid} lasted under a second: no recording fits in it`);

  const sid = r.string('sid', /^RE[0-9a-f]{32}$/, '"RE" and 32 lower-case hex digits') ?? defaults.sid;
  if (account.recordings.find(sid) !== undefined) throw new ApiError(400, messages.duplicateSid(`${at}.sid`, sid));

  let createdSec = Math.min(endSec, call.startSec + Math.max(1, Math.round(defaults.share * (endSec - call.startSec))));
  let offsetMin = defaults.offsetMin;
  const createdText = r.string('date_created');
  if (createdText !== undefined) {
    const created = parseRfc2822(createdText);
    if (created === undefined) r.fail('date_created', `must be like Mon, 6 Jan 2014 08:51:07 +0900, got ${JSON.stringify(createdText)}`);
    createdSec = created?.sec as number;
    offsetMin = created?.offsetMin as number;
    if (createdSec <= call.startSec || createdSec > endSec) {
      r.fail('date_created', `must lie inside call ${call.sid}: after ${rfc2822Date(call.startSec)} and no later than ${rfc2822Date(endSec)}`);
    }
  }
  const updatedText = r.string('date_updated');
  if (updatedText !== undefined && updatedText !== rfc2822Date(createdSec, offsetMin)) {
    r.fail('date_updated', `must equal date_created, ${rfc2822Date(createdSec, offsetMin)}`);
  }
  const room = Math.min(createdSec - call.startSec, call.duration);
  let duration = Math.max(0.1, Math.round(room * defaults.share * 100000) / 100000);
  if (r.has('duration')) {
    const v = body['duration'];
    const text = typeof v === 'number' ? String(v) : v;
    if (typeof text !== 'string' || !/^\d{1,7}(\.\d{1,5})?$/.test(text) || Number(text) <= 0) {
      r.fail('duration', `must be a positive decimal, as "14.70275" or 7, got ${JSON.stringify(v)}`);
    }
    duration = Number(text);
    if (duration > room) r.fail('duration', `must be at most ${javaDouble(room)}: the time from the call's start to date_created, within its duration`);
  }
  return { index: -1, sid, callSid: call.sid, createdSec, offsetMin, duration };
}

/** An inserted recording in input form, for the state export. */
export function recordingAsInput(rec: RecordingRecord): Record<string, unknown> {
  return {
    sid: rec.sid,
    call_sid: rec.callSid,
    date_created: rfc2822Date(rec.createdSec, rec.offsetMin),
    duration: javaDouble(rec.duration),
  };
}
