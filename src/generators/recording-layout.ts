import type { AccountProfile } from './account';

/**
 * Which call each recording belongs to.
 *
 * Calls come in blocks of CALLS_PER_BLOCK and recordings in blocks of RECORDINGS_PER_BLOCK;
 * recording block b lies on call block b. Inside a block the p-th recording lies on block-relative
 * call a[p], with a[0] = 0, a[p] <= p, a non-decreasing and at most MAX_PER_CALL recordings a call.
 * So:
 * - recording j's call depends on j alone, never on the counts (growing either changes nothing);
 * - recordings fall in time as j grows, since their calls do (see recording.ts);
 * - the first n recordings always fit in capacity(calls) calls, a rule that does not depend on the
 *   seed, so a fixture valid under one seed is valid under every seed.
 */
export const CALLS_PER_BLOCK = 8;
export const RECORDINGS_PER_BLOCK = 6;
export const MAX_PER_CALL = 3;

/** How many recordings `calls` calls can hold. @example recordingCapacity(448) // 336 */
export function recordingCapacity(calls: number): number {
  const full = Math.floor(calls / CALLS_PER_BLOCK);
  return full * RECORDINGS_PER_BLOCK + Math.min(calls % CALLS_PER_BLOCK, RECORDINGS_PER_BLOCK);
}

/** Block-relative call offsets of the block's recordings: a[p] for p in 0..5. */
export function blockLayout(account: AccountProfile, block: number): Uint8Array {
  const s = account.streams.recordingBlock.at(block);
  const a = new Uint8Array(RECORDINGS_PER_BLOCK);
  let onCall = 1;
  for (let p = 1; p < RECORDINGS_PER_BLOCK; p++) {
    const prev = a[p - 1] as number;
    // Stay on the same call (its second or third recording), or move on to a later call; a[p-1]
    // is at most p-1, so a later call within the a[p] <= p rule always exists.
    if (onCall < MAX_PER_CALL && s.chance(0.35)) {
      a[p] = prev;
      onCall++;
    } else {
      a[p] = s.int(prev + 1, p);
      onCall = 1;
    }
  }
  return a;
}

export interface Placement {
  /** Index of the call the recording lies on. */
  call: number;
  /** 0 for the call's newest recording, then 1, 2. */
  rank: number;
  /** How many recordings the layout puts on that call. */
  perCall: number;
}

export function placeRecording(account: AccountProfile, j: number): Placement {
  const block = Math.floor(j / RECORDINGS_PER_BLOCK);
  const p = j % RECORDINGS_PER_BLOCK;
  const a = blockLayout(account, block);
  const offset = a[p] as number;
  let first = p;
  while (first > 0 && a[first - 1] === offset) first--;
  let perCall = 0;
  for (const x of a) if (x === offset) perCall++;
  return { call: block * CALLS_PER_BLOCK + offset, rank: p - first, perCall };
}
