import type { AccountProfile, WorldContext } from './account';
import { generateCall } from './call';
import { placeRecording } from './recording-layout';
import type { RecordingRow } from './rows';
import { newerStartSec } from './timeline';

/** A recording as the store knows it; `format/recording.ts` turns it into the wire shape. */
export interface RecordingRecord {
  sid: string;
  callSid: string;
  /** date_created (and date_updated), whole seconds since the epoch. */
  createdSec: number;
  /** The UTC offset the dates are written in, minutes east of UTC. */
  offsetMin: number;
  /** Seconds, with up to five fractional digits. */
  duration: number;
  /** A row of production's own data: what its converters print (see `CallRecord.row`). */
  row?: RecordingRow;
}

/**
 * Production writes recording dates in the server's zone, so offsets other than +0000 occur.
 * UTC dominates; the others are whole- and half-hour zones seen in the field.
 */
export const OFFSETS_MIN = [0, 0, 0, 0, 540, -300, 60, 330, -180, 120] as const;

/**
 * Recording `j` of the account: a pure function of (seed, account, index), through its call.
 *
 * It lies inside its call's talk: created after the answer and no later than the call ends, with
 * a duration no longer than the time since the answer. It is also created no later than the
 * next newer call starts, and a call's recordings split that window into one slot each, so
 * recordings fall in time as `j` grows, like calls, and need no sort for the default order.
 */
export function generateRecording(world: WorldContext, account: AccountProfile, j: number): RecordingRecord {
  const place = placeRecording(account, j);
  const call = generateCall(world, account, place.call);
  const newerStart = newerStartSec(world, account, place.call);
  // Recorded from the answer on: start_time is the answer, and the talk follows it.
  const answerSec = call.startSec + call.ringSec;
  const lo = answerSec + 1;
  const hi = Math.min(Math.floor(call.endMs / 1000), newerStart);
  // At least 4 seconds wide (calls start 4 s apart and recorded calls last 5 s), so up to three
  // recordings get distinct seconds.
  const width = hi - lo + 1;
  const slotHi = hi - Math.floor((place.rank * width) / place.perCall);
  const slotLo = hi - Math.floor(((place.rank + 1) * width) / place.perCall) + 1;
  const s = account.streams.seeded.recordings.at(j);
  const sid = `RE${account.sids.seeded.recordings.encode(j)}`;
  const createdSec = s.int(slotLo, slotHi);
  const room = Math.min(createdSec - answerSec, call.duration ?? 0);
  const duration = Math.max(0.1, Math.round(room * (0.3 + 0.7 * s.float()) * 100000) / 100000);
  const offsetMin = s.pick(OFFSETS_MIN);
  return { sid, callSid: call.sid, createdSec, offsetMin, duration };
}

/** The index of the seeded recording with this sid, or undefined (see `seededCallIndex`). */
export function seededRecordingIndex(account: AccountProfile, sid: string, count: number): number | undefined {
  const j = /^RE[0-9a-f]{32}$/.test(sid) ? account.sids.seeded.recordings.decode(sid.slice(2)) : undefined;
  return j !== undefined && j < count ? j : undefined;
}
