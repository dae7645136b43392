import type { AccountProfile, WorldContext } from '../generators/account';
import { collationKey } from '../generators/collation';
import { generateRecording, type RecordingRecord, seededRecordingIndex } from '../generators/recording';
import { type Column, rankStrings, SLICE, type Work } from './order';
import type { TableKind } from './table-contracts';

/** The columns a recording list sorts by, besides `created`. */
export type RecordingColumn = 'duration' | 'callSid';

/** A seeded call's sid: its instance id, then the 32 hex digits of its index's code. */
const CALL_SID = /^(ID[0-9a-f]{32})-CA([0-9a-f]{8})([0-9a-f]{8})([0-9a-f]{8})([0-9a-f]{8})$/;

/**
 * One key column of `n` seeded recordings, in slices. Duration: hundred-thousandths of a second
 * (durations have at most five decimals and stay under four hours, so one exact 32-bit word).
 * CallSid: the instance id's rank, then the four hex words (eight lower-case hex digits compare
 * as their value), which orders the sids by code unit without making 70-character keys.
 */
function* recordingColumn(
  world: WorldContext,
  account: AccountProfile,
  n: number,
  column: RecordingColumn,
): Work<Column> {
  const words = Array.from({ length: column === 'duration' ? 1 : 5 }, () => new Uint32Array(n));
  const instances = [...world.instanceIds].sort();
  const sids: string[] = [];
  for (let j = 0; j < n; j++) {
    const r = generateRecording(world, account, j);
    if (column === 'duration') {
      (words[0] as Uint32Array)[j] = Math.round(r.duration * 100_000);
    } else {
      const m = CALL_SID.exec(r.callSid);
      const rank = m === null ? -1 : instances.indexOf(m[1] as string);
      // A sid of another shape (none the seed makes) sends the column to exact ranking.
      if (rank < 0 || sids.length > 0) sids[j] = r.callSid;
      else
        words.forEach((w, k) => {
          w[j] = k === 0 ? rank : Number.parseInt(m?.[k + 1] as string, 16);
        });
    }
    if (j % SLICE === 0) yield { step: `Reading each recording's ${column}`, done: j, total: n };
  }
  if (sids.length === 0) return { n, words };
  for (let j = 0; j < n; j++) sids[j] ??= generateRecording(world, account, j).callSid;
  return rankStrings(sids);
}

/** The recordings of an account: made on read, each through its call; found by sid in O(1). */
export const RECORDING_KIND: TableKind<RecordingRecord, RecordingColumn> = {
  record: generateRecording,
  index: (_world, account, sid, count) => seededRecordingIndex(account, sid, count),
  values: {
    created: (r) => r.createdSec,
    duration: (r) => r.duration,
    callSid: (r) => collationKey(r.callSid),
  },
  column: recordingColumn,
};
