import { Stream } from '../random/stream';
import type { AccountProfile, WorldContext } from './account';
import { drawDefaults } from './call';
import type { CallRecord } from './call-record';
import { OFFSETS_MIN } from './recording';

/**
 * Defaults for the k-th call an admin inserts into an account: a call like the seeded ones,
 * drawn from its own stream (so the same sequence of writes gives the same records). Its start
 * here, an hour or less before the reference instant, is a placeholder that keeps the stream's
 * draws in place: the insert puts a call with no dates at its arrival (see admin/call-input.ts).
 */
export function insertedCallDefaults(world: WorldContext, account: AccountProfile, k: number): CallRecord {
  const s = account.streams.inserted.calls.at(k);
  const startSec = world.clockSec - s.int(60, 3600);
  const call = drawDefaults(world, account, s, startSec, false);
  // "ID" and 32 hex digits, then "-CA": the InstanceId stays as drawn.
  call.sid = `${call.sid.slice(0, 37)}${ownInsertHex(account, 'call', k, call.sid.slice(37))}`;
  return call;
}

/** Defaults for the k-th inserted recording: its sid, UTC offset and a share of the room it has. */
export function insertedRecordingDefaults(
  account: AccountProfile,
  k: number,
): { sid: string; offsetMin: number; share: number } {
  const s = account.streams.inserted.recordings.at(k);
  return {
    sid: `RE${ownInsertHex(account, 'recording', k, s.hex(32))}`,
    offsetMin: s.pick(OFFSETS_MIN),
    share: 0.3 + 0.7 * s.float(),
  };
}

/**
 * The 32 hex digits of the k-th inserted record's sid. An account draws its records from its own
 * streams, and so its inserts' sids too. A sandbox (or any account with `data_of`) draws from
 * its parent's streams, which would give sibling sandboxes the same sid for their n-th insert: a
 * client keying its database by sid would see one record where there are two. Its inserts' sids
 * come from its own sid instead.
 * @example ownInsertHex(plain, 'call', 0, '3f…') // '3f…' (the drawn digits, unchanged)
 */
export function ownInsertHex(account: AccountProfile, kind: 'call' | 'recording', k: number, drawn: string): string {
  return account.dataOf === account.sid ? drawn : Stream.of([account.sid, `inserted-${kind}-sid`, k]).hex(32);
}
