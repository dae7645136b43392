import { personName } from '../random/faker';
import type { AccountProfile, WorldContext } from './account';
import { type CallRecord, drawDefaults } from './call';
import { OFFSETS_MIN } from './recording';

/**
 * Defaults for the k-th call an admin inserts into an account: a call like the seeded ones,
 * drawn from its own stream (so the same sequence of writes gives the same records). Its start
 * here, an hour or less before the reference instant, is a placeholder that keeps the stream's
 * draws in place: the insert puts a call with no dates at its arrival (see admin/call-input.ts).
 */
export function insertedCallDefaults(world: WorldContext, account: AccountProfile, k: number): CallRecord {
  const s = account.streams.insertedCall.at(k);
  const startSec = world.clockSec - s.int(60, 3600);
  const call = drawDefaults(world, account, s, startSec, false) as CallRecord;
  call.callerName = call.from === 'Anonymous' ? 'Anonymous' : personName(s);
  return call;
}

/** Defaults for the k-th inserted recording: its sid, UTC offset and a share of the room it has. */
export function insertedRecordingDefaults(
  account: AccountProfile,
  k: number,
): { sid: string; offsetMin: number; share: number } {
  const s = account.streams.insertedRecording.at(k);
  return { sid: `RE${s.hex(32)}`, offsetMin: s.pick(OFFSETS_MIN), share: 0.3 + 0.7 * s.float() };
}
