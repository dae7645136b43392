import type { AccountProfile, WorldContext } from '../generators/account';
import {
  CALL_DIRECTIONS,
  type CallFacts,
  type CallHead,
  type CallRecord,
  drawHead,
  generateCall,
  newFacts,
  newHead,
  recordingsOnCall,
  seededCallIndex,
  seededFacts,
} from '../generators/call';
import { STORED_STATUSES, shownDuration, shownStatus, storedAtClock, storedStatus } from '../generators/call-life';
import { ANONYMOUS } from '../generators/parties';
import { blockLayout, CALLS_PER_BLOCK } from '../generators/recording-layout';
import type { Stream } from '../random/stream';
import { type Column, SLICE, type Work } from './order';
import type { RecordFilter, TableKind } from './table';

/** The columns a call list sorts by, besides `created`. */
export type CallColumn = 'from' | 'to' | 'direction' | 'status' | 'duration' | 'price';

/** Rank of each value in code-unit order, so that comparing ranks compares the strings. */
const enumRanks = (values: readonly string[]) => new Map([...values].sort().map((v, i) => [v, i] as const));
const DIRECTION_RANK = enumRanks(CALL_DIRECTIONS);
const STATUS_RANK = enumRanks(STORED_STATUSES);

/** A column's key of a call's head, as one number below 2^16 (see `Column.bits`). */
function keyOf(account: AccountProfile, column: CallColumn): (h: CallHead) => number {
  switch (column) {
    case 'direction':
      return (h) => DIRECTION_RANK.get(h.direction) as number;
    // Production sorts the text it stores: `BUSY` before `busy` before `completed`.
    case 'status':
      return (h) => STATUS_RANK.get(storedStatus(h.direction, h.status)) as number;
    // A duration production never wrote is NULL, which MariaDB sorts before every number.
    case 'duration':
      return (h) => (h.duration === null ? 0 : h.duration + 1);
    // Production sorts by `cast(price as int)`.
    case 'price':
      return (h) => h.priceInt;
  }
  // From and To: the rank of the text among every party the account's calls show, drawn and
  // sorted once, so comparing ranks compares the strings and no string is made per call.
  const ranks = account.parties.ranks();
  const party = (h: CallHead) => (h.party === ANONYMOUS ? ranks.anonymous : (ranks.pool[h.party] as number));
  const own = (h: CallHead) => ranks.endpoints[h.endpoint] as number;
  return column === 'from'
    ? (h) => (h.direction === 'inbound' ? party(h) : own(h))
    : (h) => (h.direction === 'inbound' ? own(h) : party(h));
}

/**
 * The heads of the seeded calls in index order, in slices: one stream set again in place and
 * one head written over, so ten million calls allocate nothing per call.
 */
export function* eachHead(
  account: AccountProfile,
  n: number,
  step: string,
  use: (h: CallHead, i: number, s: Stream) => void,
): Work<void> {
  const family = account.streams.seeded.calls;
  const s = family.at(0);
  const head = newHead();
  for (let block = 0; block * CALLS_PER_BLOCK < n; block++) {
    // A block's recording layout decides which of its calls were answered; read it once.
    const layout = blockLayout(account, block);
    const end = Math.min(n, (block + 1) * CALLS_PER_BLOCK);
    for (let i = block * CALLS_PER_BLOCK; i < end; i++) {
      use(drawHead(account, family.seat(s, i), recordingsOnCall(account, i, layout) > 0, head), i, s);
    }
    if ((block * CALLS_PER_BLOCK) % SLICE === 0) yield { step, done: end, total: n };
  }
}

/** One key column of `n` seeded calls, from their heads alone (no whole calls, no strings). */
function* callColumn(account: AccountProfile, n: number, column: CallColumn): Work<Column> {
  const key = keyOf(account, column);
  const keys = new Uint32Array(n);
  yield* eachHead(account, n, `Reading each call's ${column}`, (h, i) => {
    keys[i] = key(h);
  });
  return { n, words: [keys], bits: 16 };
}

/**
 * Which of the first `n` seeded calls a filter keeps, from their facts (see `CallFacts`) written
 * into one object: no sid, no caller name, no string but the parties', which the pool holds.
 */
function* keepCalls(
  world: WorldContext,
  account: AccountProfile,
  n: number,
  filter: RecordFilter<CallFacts>,
): Work<Uint8Array> {
  const marks = new Uint8Array(n);
  const facts = newFacts();
  // In index order, call i-1 is the one just made: its start is the next newer call's.
  let newerSec = world.clockSec;
  yield* eachHead(account, n, 'Filtering', (h, i, s) => {
    // The instance pick comes between the head and the end: drawn, not read.
    s.float();
    seededFacts(world, account, i, h, s, newerSec, facts);
    newerSec = facts.startSec;
    if (filter.test(facts)) marks[i] = 1;
  });
  return marks;
}

/** The calls of an account: made on read from the seed, found by sid in O(1). */
export const CALL_KIND: TableKind<CallRecord, CallColumn, CallFacts> = {
  record: generateCall,
  index: seededCallIndex,
  values: {
    created: (c) => c.startSec,
    from: (c) => c.from,
    to: (c) => c.to,
    direction: (c) => c.direction,
    status: shownStatus,
    duration: (c) => shownDuration(c) ?? -1,
    // Production sorts by `cast(price as int)`.
    price: (c) => c.priceInt,
  },
  column: (_world, account, n, column) => callColumn(account, n, column),
  keep: keepCalls,
  atClock: storedAtClock,
  movesWithClock: (c) => c.lifecycle !== undefined,
};
