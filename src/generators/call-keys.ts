import type { AccountProfile } from './account';
import {
  type CallFacts,
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
} from './call';
import { STORED_STATUSES, storedStatus } from './call-life';
import { ANONYMOUS, partyIndex } from './parties';
import { CALLS_PER_BLOCK, recordedMask } from './recording-layout';

/** The columns a call list sorts by, besides `created`. */
export type CallColumn = 'from' | 'to' | 'direction' | 'status' | 'duration' | 'price';

/** The rank of each text in code-unit order, so that comparing ranks compares the texts. */
function ranksIn(texts: readonly string[]): (text: string) => number {
  const sorted = [...new Set(texts)].sort();
  return (text) => sorted.indexOf(text);
}

const directionRank = ranksIn(DIRECTION_TABLE);
/** Key of each direction table entry. */
const DIRECTION_KEYS = Uint16Array.from(DIRECTION_TABLE, directionRank);
const statusRank = ranksIn(STORED_STATUSES);
/**
 * Key of each (direction entry, status entry), at dk · STATUS_TABLE.length + sk: production
 * sorts the text it stores, so `BUSY` (an outbound call's) comes before `busy` before `completed`.
 */
const STATUS_KEYS = Uint16Array.from(
  DIRECTION_TABLE.flatMap((direction) => STATUS_TABLE.map((status) => statusRank(storedStatus(direction, status)))),
);
const STATUS_COUNT = STATUS_TABLE.length;

// Each scan draws only the first draws its key reads (see `drawHead` for their order: the
// time line, direction, status, talk, endpoint, party, rate). One buffer each: a worker thread
// has its own copy of this module. Status, Duration and Price read whether the call holds
// recordings, from its block's mask drawn once a block; each writes that block loop itself
// rather than passing a callback to a shared one, whose call site would see three callbacks
// and stop inlining them once a second column had been sorted (12% of a 50M Duration sort).
const TWO = new Float64Array(2);
const THREE = new Float64Array(3);
const FOUR = new Float64Array(4);
const SIX = new Float64Array(6);
const SEVEN = new Float64Array(7);

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

function statusKeys(account: AccountProfile, from: number, to: number, keys: Uint16Array): void {
  const family = account.streams.seeded.calls;
  for (let block = Math.floor(from / CALLS_PER_BLOCK); block * CALLS_PER_BLOCK < to; block++) {
    const mask = recordedMask(account, block);
    const base = block * CALLS_PER_BLOCK;
    for (let i = Math.max(from, base), end = Math.min(to, base + CALLS_PER_BLOCK); i < end; i++) {
      const on = (mask & (1 << (i - base))) !== 0;
      const d = family.fill(i, THREE);
      const dk = directionIndex(d[1] as number);
      const sk = statusIndex(on, isInbound(dk), drawnStatus(d[2] as number));
      keys[i] = STATUS_KEYS[dk * STATUS_COUNT + sk] as number;
    }
  }
}

/** A duration production never wrote is NULL, which MariaDB sorts before every number: key 0. */
function durationKeys(account: AccountProfile, from: number, to: number, keys: Uint16Array): void {
  const family = account.streams.seeded.calls;
  for (let block = Math.floor(from / CALLS_PER_BLOCK); block * CALLS_PER_BLOCK < to; block++) {
    const mask = recordedMask(account, block);
    const base = block * CALLS_PER_BLOCK;
    for (let i = Math.max(from, base), end = Math.min(to, base + CALLS_PER_BLOCK); i < end; i++) {
      const on = (mask & (1 << (i - base))) !== 0;
      const d = family.fill(i, FOUR);
      const inbound = isInbound(directionIndex(d[1] as number));
      const k = drawnStatus(d[2] as number);
      const sk = statusIndex(on, inbound, k);
      const duration = durationOf(sk, inbound, ringOf(sk, inbound, k, d[2] as number), talkOf(sk, on, d[3] as number));
      keys[i] = duration === null ? 0 : duration + 1;
    }
  }
}

/** Production sorts by `cast(price as int)`: the integer part is the key. */
function priceKeys(account: AccountProfile, from: number, to: number, keys: Uint16Array): void {
  const family = account.streams.seeded.calls;
  for (let block = Math.floor(from / CALLS_PER_BLOCK); block * CALLS_PER_BLOCK < to; block++) {
    const mask = recordedMask(account, block);
    const base = block * CALLS_PER_BLOCK;
    for (let i = Math.max(from, base), end = Math.min(to, base + CALLS_PER_BLOCK); i < end; i++) {
      const on = (mask & (1 << (i - base))) !== 0;
      const d = family.fill(i, SEVEN);
      const inbound = isInbound(directionIndex(d[1] as number));
      const sk = statusIndex(on, inbound, drawnStatus(d[2] as number));
      keys[i] = priceIntOf(talkOf(sk, on, d[3] as number), inbound, d[6] as number);
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
  column: CallColumn,
  from: number,
  to: number,
  keys: Uint16Array,
): void {
  KEY_SCANS[column](account, from, to, keys);
}

/** Each column's scan (see `callKeysInto`). */
const KEY_SCANS: Record<CallColumn, (account: AccountProfile, from: number, to: number, keys: Uint16Array) => void> = {
  direction: directionKeys,
  from: (account, from, to, keys) => partyKeys(account, from, to, true, keys),
  to: (account, from, to, keys) => partyKeys(account, from, to, false, keys),
  status: statusKeys,
  duration: durationKeys,
  price: priceKeys,
};

/** Columns whose key says all a filter of those fields reads, and the fields it says. */
export const KEYED_FIELDS: Readonly<Record<'from' | 'to' | 'status', readonly (keyof CallFacts)[]>> = {
  from: ['from'],
  to: ['to'],
  status: ['direction', 'status'],
};

/**
 * Facts that a column's key stands for, each with its key: From and To, the party text of each
 * rank; Status, each (direction, status) a seeded call can have (two may share a key: the same
 * stored text). A filter reading only those fields is then tested once a key, not once a call.
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
