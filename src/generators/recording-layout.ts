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
/** How often a block's next recording stays on the call before it. */
const STAY = 0.35;

/** How many recordings `calls` calls can hold. @example recordingCapacity(448) // 336 */
export function recordingCapacity(calls: number): number {
  const full = Math.floor(calls / CALLS_PER_BLOCK);
  return full * RECORDINGS_PER_BLOCK + Math.min(calls % CALLS_PER_BLOCK, RECORDINGS_PER_BLOCK);
}

/** A block's layout takes at most two draws a recording after the first: a stay, then a move. */
const LAYOUT_DRAWS = 2 * (RECORDINGS_PER_BLOCK - 1);
const layoutDraws = new Float64Array(LAYOUT_DRAWS);
const maskLayout = new Uint8Array(RECORDINGS_PER_BLOCK);

/** Block-relative call offsets of the block's recordings: a[p] for p in 0..5. */
export function blockLayout(account: AccountProfile, block: number): Uint8Array {
  return layoutInto(account, block, new Uint8Array(RECORDINGS_PER_BLOCK));
}

/** `blockLayout` written into `a`, which is returned: what a scan of every block reuses. */
export function layoutInto(account: AccountProfile, block: number, a: Uint8Array): Uint8Array {
  // The block's stream is its own: drawing all it may need up front moves nothing else.
  const draws = account.streams.recordingBlock.fill(block, layoutDraws);
  let next = 0;
  let onCall = 1;
  a[0] = 0;
  for (let p = 1; p < RECORDINGS_PER_BLOCK; p++) {
    const prev = a[p - 1] as number;
    // Stay on the same call (its second or third recording), or move on to a later call; a[p-1]
    // is at most p-1, so a later call within the a[p] <= p rule always exists.
    if (onCall < MAX_PER_CALL && (draws[next++] as number) < STAY) {
      a[p] = prev;
      onCall++;
    } else {
      a[p] = prev + 1 + Math.floor((draws[next++] as number) * (p - prev));
      onCall = 1;
    }
  }
  return a;
}

/**
 * Which of a block's calls hold recordings, as bits (bit k: call k of the block).
 * @example recordedMask(account, 0) // 0b00100111
 */
export function recordedMask(account: AccountProfile, block: number): number {
  // A page's calls lie in a few blocks: drawn one by one, eight in a row ask for the same mask.
  if (account === masked.account && block === masked.block) return masked.mask;
  const a = layoutInto(account, block, maskLayout);
  let mask = 0;
  for (let p = 0; p < RECORDINGS_PER_BLOCK; p++) mask |= 1 << (a[p] as number);
  masked.account = account;
  masked.block = block;
  masked.mask = mask;
  return mask;
}

/** The last mask made: a profile's layout never changes, so (profile, block) names it. */
const masked: { account: AccountProfile | null; block: number; mask: number } = { account: null, block: -1, mask: 0 };

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
