import { mix32, STREAM_WARM_UP, TWO_POW_32 } from '../random/stream';
import type { AccountProfile } from './account';
import {
  DIRECTION_TABLE,
  directionIndex,
  drawnStatus,
  durationOf,
  isInbound,
  priceIntOf,
  ringOf,
  STATUS_TABLE,
  statusIndex,
  talkOf,
} from './call-draws';
import { endsWithoutEndTime, STORED_STATUSES, storedStatus } from './call-life';
import type { CallFacts } from './call-record';
import { collationKey } from './collation';
import { ANONYMOUS, partyIndex } from './parties';
import { CALLS_PER_BLOCK, recordedMask } from './recording-layout';

/** The columns a call list sorts by, besides `created`. */
export type CallColumn = 'from' | 'to' | 'direction' | 'status' | 'duration' | 'price';

/**
 * The key columns drawn: the sort columns, and `ended` (1 where the call has an end_time, 0
 * where its side writes none), which an EndTime filter reads: the collation gives an outbound
 * `BUSY` (no end_time) and an inbound `busy` (one) one status key.
 */
export type KeyColumn = CallColumn | 'ended';

/**
 * The rank of each text under production's collation, so that comparing ranks compares the
 * texts as its ORDER BY does: texts equal to the database share a rank.
 */
function ranksIn(texts: readonly string[]): (text: string) => number {
  const sorted = [...new Set(texts.map(collationKey))].sort();
  return (text) => sorted.indexOf(collationKey(text));
}

const directionRank = ranksIn(DIRECTION_TABLE);
/** Key of each direction table entry. */
const DIRECTION_KEYS = Uint16Array.from(DIRECTION_TABLE, directionRank);
const statusRank = ranksIn(STORED_STATUSES);
/**
 * Key of each (direction entry, status entry), at dk · STATUS_TABLE.length + sk: production
 * sorts the text it stores under its case-insensitive collation, so `BUSY` (an outbound call's)
 * and `busy` share a key, before `completed`.
 */
const STATUS_KEYS = Uint16Array.from(
  DIRECTION_TABLE.flatMap((direction) => STATUS_TABLE.map((status) => statusRank(storedStatus(direction, status)))),
);
const STATUS_COUNT = STATUS_TABLE.length;
/** Whether a (direction entry, status entry) has an end_time, at the same index as STATUS_KEYS. */
const ENDED_KEYS = Uint16Array.from(
  DIRECTION_TABLE.flatMap((direction) => STATUS_TABLE.map((status) => (endsWithoutEndTime(direction, status) ? 0 : 1))),
);

// Each scan draws only the first draws its key reads (see `drawHead` for their order: the
// time line, direction, status, talk, endpoint, party, rate). One buffer each: a worker thread
// has its own copy of this module.
const TWO = new Float64Array(2);
const SIX = new Float64Array(6);

function directionKeys(account: AccountProfile, from: number, to: number, keys: Uint16Array): void {
  const family = account.streams.seeded.calls;
  for (let i = from; i < to; i++) {
    keys[i] = DIRECTION_KEYS[directionIndex(family.fill(i, TWO)[1] as number)] as number;
  }
}

/**
 * From and To: the rank of the text among every party the account's calls show (sorted once),
 * so no string is made per call. The other party is From on an inbound call, To otherwise.
 */
function partyKeys(account: AccountProfile, from: number, to: number, fromSide: boolean, keys: Uint16Array): void {
  const family = account.streams.seeded.calls;
  const ranks = account.parties.ranks();
  const endpoints = account.endpoints.length;
  for (let i = from; i < to; i++) {
    const d = family.fill(i, SIX);
    const inbound = isInbound(directionIndex(d[1] as number));
    if (inbound === fromSide) {
      const party = partyIndex(d[5] as number, inbound);
      keys[i] = party === ANONYMOUS ? ranks.anonymous : (ranks.pool[party] as number);
    } else {
      keys[i] = ranks.endpoints[Math.floor((d[4] as number) * endpoints)] as number;
    }
  }
}

/** The columns whose key reads whether the call holds recordings (a recorded call was answered). */
type RecordedColumn = 'status' | 'ended' | 'duration' | 'price';

/**
 * Status, Duration and Price, in one loop: whether a call holds recordings comes from its
 * block's mask, drawn once a block, and the call's draws are made here, in locals, with the
 * seeding and rounds of `StreamFamily.fill` (random/stream.ts). Through `fill` and its buffer a
 * Duration key cost 82 ns, and 70 ns so, on one core: the fifty-million-call sorts are most of
 * their time here. A change of the stream's rounds must be made in both places; the generators
 * test holds every column's keys to the calls `generateCall` makes, and fails otherwise. One loop
 * for the three columns, with the column tested in it (the same way for a whole scan), rather
 * than a loop taking a callback: a call site seeing several callbacks stopped inlining them.
 * A duration production never wrote is NULL, which MariaDB sorts before every number: key 0.
 * Price: production sorts by `cast(price as int)`, the integer part.
 */
function recordedKeys(
  account: AccountProfile,
  column: RecordedColumn,
  from: number,
  to: number,
  keys: Uint16Array,
): void {
  const [h1, h2] = account.streams.seeded.calls.hashes;
  const status = column === 'status' || column === 'ended';
  const byStatus = column === 'status' ? STATUS_KEYS : ENDED_KEYS;
  const price = column === 'price';
  for (let block = Math.floor(from / CALLS_PER_BLOCK); block * CALLS_PER_BLOCK < to; block++) {
    const mask = recordedMask(account, block);
    const base = block * CALLS_PER_BLOCK;
    for (let i = Math.max(from, base), end = Math.min(to, base + CALLS_PER_BLOCK); i < end; i++) {
      const on = (mask & (1 << (i - base))) !== 0;
      let a = mix32(h1 ^ Math.imul(i, 0x9e3779b1));
      let b = mix32((h2 + a) >>> 0);
      let c = mix32(a ^ b ^ 0x5bd1e995) | 0;
      a |= 0;
      b |= 0;
      let d = 1;
      let t = 0;
      // The warm-up rounds and the time-line draw, which no key reads; then the direction,
      // status and talk draws; Price goes on to the rate draw.
      for (let k = 0; k <= STREAM_WARM_UP; k++) {
        t = (((a + b) | 0) + d) | 0;
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (((c << 21) | (c >>> 11)) + t) | 0;
      }
      t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + t) | 0;
      const directionDraw = (t >>> 0) / TWO_POW_32;
      t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + t) | 0;
      const statusDraw = (t >>> 0) / TWO_POW_32;
      const dk = directionIndex(directionDraw);
      const inbound = isInbound(dk);
      const k = drawnStatus(statusDraw);
      const sk = statusIndex(on, inbound, k);
      if (status) {
        keys[i] = byStatus[dk * STATUS_COUNT + sk] as number;
        continue;
      }
      t = (((a + b) | 0) + d) | 0;
      const talk = talkOf(sk, on, (t >>> 0) / TWO_POW_32);
      if (!price) {
        const duration = durationOf(sk, inbound, ringOf(sk, inbound, k, statusDraw), talk);
        keys[i] = duration === null ? 0 : duration + 1;
        continue;
      }
      // Past the talk draw: the endpoint and party draws, then the rate draw.
      for (let r = 0; r < 3; r++) {
        d = (d + 1) | 0;
        a = b ^ (b >>> 9);
        b = (c + (c << 3)) | 0;
        c = (((c << 21) | (c >>> 11)) + t) | 0;
        t = (((a + b) | 0) + d) | 0;
      }
      keys[i] = priceIntOf(talk, inbound, (t >>> 0) / TWO_POW_32);
    }
  }
}

/**
 * The sort keys of seeded calls from..to-1 by `column`, written at `keys[i]`: one number below
 * 2^16 a call, which orders the calls as production orders the column's values, ties left to the
 * caller. Each column has its own loop over the draws it reads and nothing else (no head, no
 * string), which is what drawing fifty million keys can afford: a few dozen nanoseconds a call.
 * @example callKeysInto(account, 'status', 0, 8, keys) // keys[0..7] = ranks of the stored statuses
 */
export function callKeysInto(
  account: AccountProfile,
  column: KeyColumn,
  from: number,
  to: number,
  keys: Uint16Array,
): void {
  KEY_SCANS[column](account, from, to, keys);
}

/** Each column's scan (see `callKeysInto`). */
const KEY_SCANS: Record<KeyColumn, (account: AccountProfile, from: number, to: number, keys: Uint16Array) => void> = {
  direction: directionKeys,
  from: (account, from, to, keys) => partyKeys(account, from, to, true, keys),
  to: (account, from, to, keys) => partyKeys(account, from, to, false, keys),
  status: (account, from, to, keys) => recordedKeys(account, 'status', from, to, keys),
  ended: (account, from, to, keys) => recordedKeys(account, 'ended', from, to, keys),
  duration: (account, from, to, keys) => recordedKeys(account, 'duration', from, to, keys),
  price: (account, from, to, keys) => recordedKeys(account, 'price', from, to, keys),
};

/** Columns whose key says all a filter of those fields reads, and the fields it says. */
export const KEYED_FIELDS: Readonly<Record<'from' | 'to' | 'status', readonly (keyof CallFacts)[]>> = {
  from: ['from'],
  to: ['to'],
  status: ['direction', 'status'],
};

/**
 * Facts that a column's key stands for, each with its key: From and To, the party text of each
 * rank; Status, each (direction, status) a seeded call can have (two may share a key: texts
 * equal under the collation, which every filter of a status compares by). A filter reading only those fields is then tested once a key, not once a call.
 * @example keyedFacts(account, 'to')[0] // [0, { to: '+12015550123' }]
 */
export function keyedFacts(
  account: AccountProfile,
  column: keyof typeof KEYED_FIELDS,
): [key: number, facts: Partial<CallFacts>][] {
  if (column === 'status') {
    return DIRECTION_TABLE.flatMap((direction, dk) =>
      STATUS_TABLE.map((status, sk): [number, Partial<CallFacts>] => [
        STATUS_KEYS[dk * STATUS_COUNT + sk] as number,
        { direction, status },
      ]),
    );
  }
  return account.parties.ranks().texts.map((text, rank) => [rank, { [column]: text }]);
}
