import type { AccountProfile, WorldContext } from '../generators/account';
import type { Column, Order, Work } from './order';
import type { WriteMark } from './overlay';

/** Every list has a `created` column: the creation time, which falls as the seeded index grows. */
export type Created = 'created';

/**
 * A sort in the store's own terms: one of the list's columns and a direction. `null` stands for
 * the default order, newest first. The query layer maps SortBy's wire names onto these.
 */
export interface StoreSort<C extends string> {
  column: C;
  direction: 'asc' | 'desc';
}

/** One test of a filter, and every field of the record it reads where known (a scan may make only those). */
export interface FilterPart<R> {
  test(record: R): boolean;
  reads?: readonly string[];
  /** Set where the test is exactly a bound on one of the record's times (see `TimeBound`). */
  bound?: TimeBound;
}

/**
 * A test that is a bound on a time: the record's shown start on or after `ms` (`startFrom`),
 * or its shown end by `ms` (`endBy`; a record with no end never passes). A kind whose records'
 * times fall with their index may answer most of them from the bound alone.
 */
export interface TimeBound {
  time: 'startFrom' | 'endBy';
  ms: number;
}

/**
 * A filter as the store applies it: a stable key (to cache the filtered order) and a test; its
 * parts, where given, are tests whose conjunction it is, each of which a kind may answer its own
 * way (see `keepCalls`).
 */
export interface RecordFilter<R> {
  key: string;
  test(record: R): boolean;
  parts?: readonly FilterPart<R>[];
}

/** An order and the records as they were when it was built: what a page is written from. */
export interface TableState<R> {
  order: Order;
  get(id: number): R;
}

/** What the rest of the emulator may do with a list: read it. Writes go through the World. */
export interface TableView<R, C extends string, F = R> {
  /** Unique in the process, for caches keyed by table. */
  readonly id: number;
  /** How many records the seed makes. */
  readonly seeded: number;
  /** Records in the list now. */
  readonly count: number;
  /** Inserts ever made since the last reset: the next insert's number. */
  readonly nextInsert: number;
  /** The record with this id: a seeded index, or an inserted id. */
  get(id: number): R;
  /** The id of the live record with this sid, or undefined. */
  find(sid: string): number | undefined;
  /** Whether the record with this id is live (made by the seed and not deleted, or inserted). */
  has(id: number): boolean;
  /** The list order for a sort (null: the default, newest first). */
  order(sort: StoreSort<C> | null): Order;
  /**
   * The order for a sort and a filter, as work in slices: what a request runs so that building the order of ten
   * million calls never holds the event loop for long. It answers with the order and the state
   * it holds for: a page reads its records through `get`, so writes during the build cannot
   * remove one it lists. The order is cached when no write landed meanwhile.
   */
  prepare(sort: StoreSort<C> | null, filter: RecordFilter<F> | null): Work<TableState<R>>;
  /** Counts writes: what an order built over several slices checks it was built on. */
  readonly writes: number;
  /** Deleted seeded indexes, ascending. */
  deletedIndexes(): number[];
  /** Inserted records, in insert order. */
  insertedRecords(): R[];
  /** A fork's writes as a reset of it brings them back (see Table.forkBase); null when not a fork. */
  forkBase(): { inserted: R[]; deleted: number[]; nextInsert: number } | null;
  /** Counts changes to the inserted and deleted records alone (a clock move is none): what an index of them keys on. */
  readonly overlayWrites: number;
  /**
   * Whether `sid` names a record this list has or had: a live one, a seeded or arrived one since
   * deleted, or an inserted one since deleted. A sandbox shares such sids with its parent.
   */
  known(sid: string): boolean;
  /** The newest creation time (seconds) among the inserted records, if any: kept as they come. */
  newestInserted(): number | undefined;
  /** Whether the record with this id was visible at a moment (see Table.visibleAt). */
  visibleAt(id: number, at: WriteMark): boolean;
  /** When the record with this id became visible on the clock, ms (see Table.appearedMs). */
  appearedMs(id: number): number;
  /** Whether a record of this list was deleted in [fromMs, toMs] on the clock. */
  removedBetween(fromMs: number, toMs: number): boolean;
  /**
   * `get` as of now, unchanged by later writes: what a page rendered over many event-loop turns
   * reads, so that a reset or a delete meanwhile cannot remove a record it has yet to write.
   */
  snapshot(): (id: number) => R;
  /** A record's key for a sort, as `sortComparator` reads it: what a merge over several tables compares. */
  recordKey(sort: StoreSort<C> | null): (rec: R) => RecordKey;
}

/**
 * Records that exist by the clock alone (live traffic): how many have arrived by an instant, the
 * j-th as it stands at an instant, and which arrival a sid names. All pure functions.
 */
export interface Arrivals<R> {
  count(nowMs: number): number;
  /** Whether arrival `j` exists at the instant. */
  has(j: number, nowMs: number): boolean;
  /** The arrivals that exist at the instant, any order. */
  ids(nowMs: number): Iterable<number>;
  get(j: number, nowMs: number): R;
  index(sid: string): number | undefined;
  /** When arrival `j` appeared, ms (absent: at its creation). */
  appearMs?(j: number): number;
  /**
   * The arrivals at the instant by creation, newest first or oldest first, ties as the table's
   * comparison breaks them: built without a merge, however many have arrived. Every arrival is
   * newer than every seeded record (those lie before the reference instant, arrivals after it).
   */
  createdOrder(nowMs: number, newestFirst: boolean): Order;
}

/**
 * What makes one kind of list: how a seeded record is made and found by sid, how each column
 * reads a record (`created`, in seconds, is also every order's tie-break), and how the key
 * column of each is built for the seeded records (once, when first sorted by, in slices).
 * `F` is what its filters read of a record (the whole record, unless the kind says less).
 */
export interface TableKind<R, C extends string, F = R> {
  record(world: WorldContext, account: AccountProfile, index: number): R;
  /** The seeded index a sid stands for, if any (below `count`). */
  index(world: WorldContext, account: AccountProfile, sid: string, count: number): number | undefined;
  values: Record<C, (record: R) => string | number> & { created: (record: R) => number };
  column(world: WorldContext, account: AccountProfile, count: number, column: C): Work<Column>;
  /**
   * Which of the first `count` seeded records a filter keeps (1: kept), scanning them in index
   * order in a lean form that holds only what filters read. Absent: each record is made whole
   * and tested, in the order being filtered.
   */
  keep?(world: WorldContext, account: AccountProfile, count: number, filter: RecordFilter<F>): Work<Uint8Array>;
  /** An inserted record as it stands at an instant, for records that change with the clock. */
  atClock?: (record: R, nowMs: number) => R;
  /** Whether an inserted record changes with the clock. */
  movesWithClock?: (record: R) => boolean;
}

/** A record's place in an order, whichever table it is in: its sorted value, creation time and sid. */
export interface RecordKey {
  v: string | number;
  c: number;
  sid: string;
}
