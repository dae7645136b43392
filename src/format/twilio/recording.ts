import type { RecordingRecord } from '../../generators/recording';
import { TWILIO_VERSION, twilioMediaUrl, twilioRecordingUri } from '../uris';
import { RECORDING_MINUTE_UNITS, twilioDate, twilioPrice, twilioSid } from './fields';

/** Whole seconds, as Twilio prints a recording's length. */
const seconds = (rec: RecordingRecord) => Math.round(rec.duration);
/** Started minutes at Twilio's list price. */
const priceUnits = (rec: RecordingRecord) => Math.max(1, Math.ceil(rec.duration / 60)) * RECORDING_MINUTE_UNITS;

/** The members both of Twilio's recording schemas open with, in their order. */
function recordingHead(rec: RecordingRecord, accountSid: string): Record<string, unknown> {
  const created = twilioDate(rec.createdSec);
  return {
    account_sid: accountSid,
    api_version: TWILIO_VERSION,
    call_sid: twilioSid(rec.callSid),
    conference_sid: null,
    date_created: created,
    date_updated: created,
    start_time: created,
    duration: String(seconds(rec)),
    sid: rec.sid,
  };
}

/**
 * A recording of `Recordings.json` (`api.v2010.account.recording`): every property in the
 * schema's order. The emulator's recordings are a call's own, mono, made by a `<Record>` verb,
 * completed: `channels` 1, `source` `RecordVerb`, `status` `completed`, no error, no conference,
 * no encryption; `start_time` is its creation; `price` a string; `media_url` absolute, without a
 * suffix (WAV), as Twilio prints it.
 * @example twilioRecordingJson(rec, 'AC1', 'http://127.0.0.1:8080') // '{"account_sid":"AC1","api_version":"2010-04-01","call_sid":"CA…",…}'
 */
export function twilioRecordingJson(rec: RecordingRecord, accountSid: string, publicUrl: string): string {
  return JSON.stringify({
    ...recordingHead(rec, accountSid),
    price: twilioPrice(priceUnits(rec)),
    price_unit: 'USD',
    status: 'completed',
    channels: 1,
    source: 'RecordVerb',
    error_code: null,
    uri: twilioRecordingUri(accountSid, rec.sid),
    encryption_details: null,
    subresource_uris: {
      add_on_results: twilioRecordingUri(accountSid, rec.sid, 'AddOnResults'),
      transcriptions: twilioRecordingUri(accountSid, rec.sid, 'Transcriptions'),
    },
    media_url: twilioMediaUrl(publicUrl, accountSid, rec.sid),
  });
}

/**
 * A recording of a call's `Recordings.json` (`api.v2010.account.call.call_recording`), which is
 * another schema: `price` a number, a `track`, no `media_url` and no `subresource_uris`.
 * @example twilioCallRecordingJson(rec, 'AC1') // '{"account_sid":"AC1",…,"price":-0.0025,…,"track":"both"}'
 */
export function twilioCallRecordingJson(rec: RecordingRecord, accountSid: string): string {
  return JSON.stringify({
    ...recordingHead(rec, accountSid),
    price: -priceUnits(rec) / 100_000,
    uri: twilioRecordingUri(accountSid, rec.sid),
    encryption_details: null,
    price_unit: 'USD',
    status: 'completed',
    channels: 1,
    source: 'RecordVerb',
    error_code: null,
    track: 'both',
  });
}
