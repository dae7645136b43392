import type { AccountProfile, WorldContext } from '../generators/account';
import { generateCall, newFacts, seededCallIndex, seededFacts } from '../generators/call';
import { type CallHead, MAX_CALL_SEC, MAX_RING_SEC, newHead, scanHeads } from '../generators/call-draws';
import { type CallColumn, callKeysInto, KEYED_FIELDS, type KeyColumn, keyedFacts } from '../generators/call-keys';
import { shownDuration, shownStatus, storedAtClock } from '../generators/call-life';
import type { CallFacts, CallRecord } from '../generators/call-record';
import { collationKey } from '../generators/collation';
import { callStartSec, newerStartSec } from '../generators/timeline';
import { keysOnThreads } from './column-threads';
import { type Column, SLICE, type Work } from './order';
import type { FilterPart, RecordFilter, TableKind, TimeBound } from './table-contracts';

export type { CallColumn } from '../generators/call-keys';

/**
 * The heads of the seeded calls in index order, in slices: one head written over, so ten
 * million calls allocate nothing per call (see `scanHeads`).
 */
export function* eachHead(
  account: AccountProfile,
  from: number,
  to: number,
  step: string,
  use: (h: CallHead, i: number, endMilli: number) => void,
): Work<void> {
  const head = newHead();
  for (let start = from; start < to; start += SLICE) {
    scanHeads(account, start, Math.min(to, start + SLICE), head, use);
    yield { step, done: Math.min(to, start + SLICE) - from, total: to - from };
  }
}

/**
 * One key column of `n` seeded calls, from their heads alone (no whole calls, no strings):
 * shared among threads for a huge account, so both cores draw while this one keeps serving.
 */
function* callColumn(account: AccountProfile, n: number, column: KeyColumn): Work<Column> {
  const step = `Reading each call's ${column}`;
  const threaded = yield* keysOnThreads(account, column, n, step);
  if (threaded !== null) return { n, words: [threaded.keys], bits: 16, groups: threaded.counts, order: threaded.order };
  const keys = new Uint16Array(n);
  for (let from = 0; from < n; from += SLICE) {
    callKeysInto(account, column, from, Math.min(n, from + SLICE), keys);
    yield { step, done: Math.min(n, from + SLICE), total: n };
  }
  return { n, words: [keys], bits: 16 };
}

/** Fields no seeded call has (an inserted or live call's), so a scan of seeded ones need not make them. */
const NEVER_SEEDED = new Set(['live', 'lifecycle', 'swept', 'row']);
/** Key columns a filter's test can be read from, cheapest first. */
const KEYED = Object.entries(KEYED_FIELDS) as [keyof typeof KEYED_FIELDS, readonly string[]][];

/** The key column whose keys say every field `reads` names, if one does. */
function keyedColumn(reads: readonly string[] | undefined): keyof typeof KEYED_FIELDS | undefined {
  if (reads === undefined) return undefined;
  const made = reads.filter((f) => !NEVER_SEEDED.has(f));
  return KEYED.find(([, fields]) => made.every((f) => fields.includes(f)))?.[0];
}

/** `step(i)` for i in 0..n-1, a slice at a time: fifty million in one go would hold the event loop for a tenth of a second. */
function* sliced(n: number, name: string, step: (i: number) => void): Work<void> {
  for (let from = 0; from < n; from += SLICE) {
    const to = Math.min(n, from + SLICE);
    for (let i = from; i < to; i++) step(i);
    yield { step: name, done: to, total: n };
  }
}

/** Which of a key column's keys a test keeps (1: kept), tested once a key on the facts it stands for. */
function keptKeys(
  account: AccountProfile,
  column: keyof typeof KEYED_FIELDS,
  test: (c: CallFacts) => boolean,
): Uint8Array {
  const kept = new Uint8Array(1 << 16);
  for (const [key, facts] of keyedFacts(account, column)) if (test(Object.assign(newFacts(), facts))) kept[key] = 1;
  return kept;
}

/** The first of calls 0..n-1 whose start (falling as the index grows) passes `past`, by bisection: one draw a step. */
function firstWhere(
  world: WorldContext,
  account: AccountProfile,
  n: number,
  past: (startSec: number) => boolean,
): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (past(callStartSec(world, account, mid))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The marks of a time bound (see `TimeBound`), from the starts alone for all but a few calls:
 * a seeded call's start falls as its index grows, its shown start is at most MAX_RING_SEC
 * later, and its end at most MAX_CALL_SEC and 999 ms later. So, for a start on or after `ms`,
 * the calls before `a` pass and those from `b` fail; for an end by `ms`, those before `a` fail
 * and those from `b` pass if they have an end at all, which their status says (read through the
 * status keys). Only the calls between, a minute or four hours of them, are made and tested.
 */
function* boundMarks(
  world: WorldContext,
  account: AccountProfile,
  n: number,
  part: FilterPart<CallFacts>,
  bound: TimeBound,
): Work<Uint8Array> {
  const marks = new Uint8Array(n);
  const { ms } = bound;
  let a: number;
  let b: number;
  if (bound.time === 'startFrom') {
    a = firstWhere(world, account, n, (sec) => sec * 1000 < ms);
    b = firstWhere(world, account, n, (sec) => (sec + MAX_RING_SEC) * 1000 < ms);
    marks.fill(1, 0, a);
  } else {
    a = firstWhere(world, account, n, (sec) => sec * 1000 <= ms);
    b = firstWhere(world, account, n, (sec) => (sec + MAX_CALL_SEC + 1) * 1000 <= ms);
    if (b < n) {
      // Whether each call has an end_time, from its own key column (see KeyColumn).
      const ended = (yield* callColumn(account, n, 'ended')).words[0] as Uint16Array;
      yield* sliced(n - b, 'Filtering', (k) => (marks[b + k] = ended[b + k] as number));
    }
  }
  yield* eachFacts(world, account, a, b, (facts, i) => {
    if (part.test(facts)) marks[i] = 1;
  });
  return marks;
}

/** Each of seeded calls from..to-1 as facts, in index order, written into one object. */
function* eachFacts(
  world: WorldContext,
  account: AccountProfile,
  from: number,
  to: number,
  use: (facts: CallFacts, i: number) => void,
): Work<void> {
  const facts = newFacts();
  // In index order, call i-1 is the one just made: its start is the next newer call's.
  let newerSec = from < to ? newerStartSec(world, account, from) : 0;
  yield* eachHead(account, from, to, 'Filtering', (h, i, endMilli) => {
    seededFacts(world, account, i, h, endMilli, newerSec, facts);
    newerSec = facts.startSec;
    use(facts, i);
  });
}

/**
 * Which of the first `n` seeded calls a filter keeps (1: kept), each of its tests answered the
 * cheapest way it can be:
 * - one that reads only what a key column says (From, To, Status), once a key, read through the
 *   column drawn like a sort's (on worker threads for a huge account);
 * - one that reads nothing, once;
 * - a bound on a time (StartTime, EndTime), from the calls' starts (see `boundMarks`);
 * - any other, on each call's facts, written into one object (no sid, no caller name).
 */
function* keepCalls(
  world: WorldContext,
  account: AccountProfile,
  n: number,
  filter: RecordFilter<CallFacts>,
): Work<Uint8Array> {
  // Until a test has marked them, every call is kept.
  let marks: Uint8Array | null = null;
  function* and(more: Uint8Array): Work<void> {
    if (marks === null) marks = more;
    else yield* sliced(n, 'Filtering', (i) => ((marks as Uint8Array)[i]! &= more[i] as number));
  }
  const scanned: ((c: CallFacts) => boolean)[] = [];
  for (const part of filter.parts ?? [{ test: filter.test }]) {
    const column = keyedColumn(part.reads);
    // A test of nothing a seeded call has (a row's parent, say) is one answer for them all.
    if (part.reads?.every((f) => NEVER_SEEDED.has(f))) {
      if (!part.test(newFacts())) yield* and(new Uint8Array(n));
    } else if (column !== undefined) {
      const kept = keptKeys(account, column, part.test);
      const keys = (yield* callColumn(account, n, column)).words[0] as Uint16Array;
      const more = new Uint8Array(n);
      yield* sliced(n, 'Filtering', (i) => (more[i] = kept[keys[i] as number] as number));
      yield* and(more);
    } else if (part.bound !== undefined) {
      yield* and(yield* boundMarks(world, account, n, part, part.bound));
    } else {
      scanned.push(part.test);
    }
  }
  const kept: Uint8Array = marks ?? new Uint8Array(n).fill(1);
  if (scanned.length > 0) {
    yield* eachFacts(world, account, 0, n, (facts, i) => {
      if (kept[i] === 1 && !scanned.every((test) => test(facts))) kept[i] = 0;
    });
  }
  return kept;
}

/** The calls of an account: made on read from the seed, found by sid in O(1). */
export const CALL_KIND: TableKind<CallRecord, CallColumn, CallFacts> = {
  record: generateCall,
  index: seededCallIndex,
  values: {
    created: (c) => c.startSec,
    // Texts compare under production's collation: case and accents aside.
    from: (c) => collationKey(c.from),
    to: (c) => collationKey(c.to),
    direction: (c) => collationKey(c.direction),
    status: (c) => collationKey(shownStatus(c)),
    duration: (c) => shownDuration(c) ?? -1,
    // Production sorts by `cast(price as int)`.
    price: (c) => c.priceInt,
  },
  column: (_world, account, n, column) => callColumn(account, n, column),
  keep: keepCalls,
  atClock: storedAtClock,
  movesWithClock: (c) => c.lifecycle !== undefined,
};
