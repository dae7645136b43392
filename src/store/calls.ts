import type { AccountProfile, WorldContext } from '../generators/account';
import {
  CALL_DIRECTIONS,
  type CallFacts,
  type CallHead,
  type CallRecord,
  callFrom,
  callTo,
  generateCall,
  type HeadPart,
  newFacts,
  newHead,
  scanHeads,
  seededCallIndex,
  seededFacts,
} from '../generators/call';
import { STORED_STATUSES, shownDuration, shownStatus, storedAtClock, storedStatus } from '../generators/call-life';
import { ANONYMOUS } from '../generators/parties';
import { keysOnThreads } from './column-threads';
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
 * The heads of the seeded calls in index order, in slices: one head written over, so ten
 * million calls allocate nothing per call (see `scanHeads`).
 */
export function* eachHead(
  account: AccountProfile,
  n: number,
  step: string,
  part: HeadPart,
  use: (h: CallHead, i: number, endMilli: number) => void,
): Work<void> {
  const head = newHead();
  for (let from = 0; from < n; from += SLICE) {
    scanHeads(account, from, Math.min(n, from + SLICE), part, head, use);
    yield { step, done: Math.min(n, from + SLICE), total: n };
  }
}

/** The part of a head each column's key reads (see `HeadPart`). */
const PART_OF: Record<CallColumn, HeadPart> = {
  from: 'parties',
  to: 'parties',
  direction: 'direction',
  status: 'outcome',
  duration: 'outcome',
  price: 'outcome',
};

/**
 * Keys of seeded calls from..to-1 for a column, written at `keys[i]`: the work of one slice,
 * or of one thread's share of a parallel scan (see column-threads.ts).
 */
export function callKeysInto(
  account: AccountProfile,
  column: CallColumn,
  from: number,
  to: number,
  keys: Uint16Array,
): void {
  const key = keyOf(account, column);
  scanHeads(account, from, to, PART_OF[column], newHead(), (h, i) => {
    keys[i] = key(h);
  });
}

/**
 * One key column of `n` seeded calls, from their heads alone (no whole calls, no strings):
 * shared among threads for a huge account, so both cores draw while this one keeps serving.
 */
function* callColumn(account: AccountProfile, n: number, column: CallColumn): Work<Column> {
  const step = `Reading each call's ${column}`;
  const threaded = yield* keysOnThreads(account, column, n, step);
  if (threaded !== null) return { n, words: [threaded], bits: 16 };
  const keys = new Uint16Array(n);
  for (let from = 0; from < n; from += SLICE) {
    callKeysInto(account, column, from, Math.min(n, from + SLICE), keys);
    yield { step, done: Math.min(n, from + SLICE), total: n };
  }
  return { n, words: [keys], bits: 16 };
}

/** Fields of a call's facts each part of a head gives (the direction in all of them). */
const PARTIAL_FACTS: readonly [HeadPart, ReadonlySet<string>][] = [
  ['parties', new Set(['direction', 'from', 'to'])],
  ['outcome', new Set(['direction', 'status', 'duration', 'priceInt'])],
];
/** Fields no seeded call has (an inserted or live call's), so a scan of seeded ones need not make them. */
const NEVER_SEEDED = new Set(['live', 'lifecycle', 'swept']);

/** The least part of a head that gives every field a filter reads: `whole` where it does not say. */
function partFor(reads: readonly string[] | undefined): HeadPart {
  if (reads === undefined) return 'whole';
  const made = reads.filter((f) => !NEVER_SEEDED.has(f));
  return PARTIAL_FACTS.find(([, fields]) => made.every((f) => fields.has(f)))?.[0] ?? 'whole';
}

/**
 * Which of the first `n` seeded calls a filter keeps, from their facts (see `CallFacts`) written
 * into one object: no sid, no caller name, no string but the parties', which the pool holds.
 * Only the part of each head the filter reads is drawn (From and To need no outcome, Status no
 * parties); the fields it does not read stay stale.
 */
function* keepCalls(
  world: WorldContext,
  account: AccountProfile,
  n: number,
  filter: RecordFilter<CallFacts>,
): Work<Uint8Array> {
  const marks = new Uint8Array(n);
  const facts = newFacts();
  const part = partFor(filter.reads);
  // In index order, call i-1 is the one just made: its start is the next newer call's.
  let newerSec = world.clockSec;
  yield* eachHead(account, n, 'Filtering', part, (h, i, endMilli) => {
    if (part === 'whole') {
      seededFacts(world, account, i, h, endMilli, newerSec, facts);
      newerSec = facts.startSec;
    } else if (part === 'parties') {
      facts.direction = h.direction;
      facts.from = callFrom(account, h);
      facts.to = callTo(account, h);
    } else {
      facts.direction = h.direction;
      facts.status = h.status;
      facts.duration = h.duration;
      facts.priceInt = h.priceInt;
    }
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
