import { problems, ValidationError } from '../errors';
import type { AccountProfile, WorldContext } from '../generators/account';
import { builtOrders } from './built-orders';
import { MAX_CALLS } from './fixtures';
import {
  ARRIVAL_BASE,
  type Column,
  concatOrder,
  finish,
  groupable,
  indexOrder,
  keyGroups,
  markedIds,
  newTableId,
  type Order,
  permutationOrder,
  readyRange,
  reverseGroups,
  reverseIndexOrder,
  SLICE,
  sortPermutation,
  type Work,
} from './order';
import { INSERT_BASE, mergeOrder, Overlay, type OverlayMark, type WriteMark } from './overlay';
import { patchedOrder } from './patched-order';
import { sortComparator } from './sort-keys';
import type {
  Arrivals,
  Created,
  RecordFilter,
  RecordKey,
  StoreSort,
  TableKind,
  TableState,
  TableView,
} from './table-contracts';

const MAX_FILTERED = 32;
/** Inserted records and arrivals merged into an order, at most. */
export const MERGE_LIMIT = 3_000_000;
/** Inserts and deletions at most for an order kept as a patch over its base (see patched-order.ts). */
export const PATCH_LIMIT = 16_384;
/** Records a filter scans, at most: the largest seeded list and a merge's worth of writes. */
export const SCAN_LIMIT = MAX_CALLS + MERGE_LIMIT;

/** What an order compares a record by: its sorted value, its creation time, and its id (for the sid). */
interface SortKey {
  v: string | number;
  c: number;
  id: number;
}
const sortKey = (sort: StoreSort<string> | null): string =>
  sort === null ? 'default' : `${sort.column}:${sort.direction}`;

/**
 * One list of one account: seeded records made on read, plus admin writes in an overlay.
 *
 * Its kind says how a seeded record is made and found by sid, and how each column reads a
 * record; this class builds every order from that. Seeded orders: `created` is the index order
 * itself (creation time falls as the index grows); any other column is a stable counting sort of
 * its key column, ties by index, which is production's tie-break (`date_created` descending).
 * An account with writes merges its inserts into those orders with the same comparison.
 */
export class Table<R extends F & { sid: string }, C extends string, F = R> implements TableView<R, C | Created, F> {
  readonly id = newTableId();
  private readonly overlay = new Overlay<R>();
  private columns = new Map<C, Column>();
  /** Records by key, of each column sorted whose keys were not kept (see `sortedByColumn`). */
  private groups = new Map<C, Uint32Array>();
  private writeCount = 0;
  private lastSnapshot: { writes: number; get: (id: number) => R } | null = null;
  /** Newest inserted creation time; stale (recomputed on demand) after a removal. */
  private newest: number | undefined;
  private newestStale = false;
  private seededOrders = new Map<string, Uint32Array>();
  private readonly overlayOrders = new Map<string, Order>();
  /** Filtered orders, most recent last; a few dozen at most, dropped on any write. */
  private readonly filtered = new Map<string, Uint32Array>();

  /** The clock the arrivals were last counted at: a move is a write to a table with arrivals. */
  private clockSeen: number;
  /** Inserted records that change with the clock: while there are any, a move is a write too. */
  private clockRecords = 0;
  /** A fork's writes when it was made: what resetting it goes back to. */
  private forkedWith: { writes: OverlayMark<R>; clockRecords: number } | null = null;

  /**
   * @param seeded how many records the seed makes
   * @param arrivals records that come with the clock (live traffic), if any
   * @param moves how an inserted record stands at an instant, where the account's own writes
   *   (restart sweeps) shape it too; absent: the kind's `atClock`
   */
  constructor(
    private readonly kind: TableKind<R, C, F>,
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    readonly seeded: number,
    private readonly arrivals: Arrivals<R> | null = null,
    private readonly moves: ((record: R, nowMs: number) => R) | null = null,
  ) {
    this.clockSeen = world.nowMs;
  }

  /**
   * With arrivals, the clock is part of the state: once it has moved, every order and snapshot
   * built before is dropped, as a write drops them. Called by everything that reads the state.
   */
  private sync(): void {
    if ((this.arrivals !== null || this.clockRecords > 0) && this.world.nowMs !== this.clockSeen) {
      this.clockSeen = this.world.nowMs;
      this.dropOrders();
      this.overlayCount--;
    }
  }

  /** Arrivals by the clock (none without traffic). */
  private arrived(): number {
    this.sync();
    return this.arrivals === null ? 0 : this.arrivals.count(this.clockSeen);
  }

  get count(): number {
    // Deleted ids are seeded ones and arrived ones (the clock goes back only with a reset, which
    // clears them): one subtraction covers both.
    return this.seeded + this.arrived() + this.overlay.insertedCount - this.overlay.deletedCount;
  }

  get nextInsert(): number {
    return this.overlay.nextInsert;
  }

  get(id: number): R {
    if (id >= ARRIVAL_BASE) {
      this.sync();
      return (this.arrivals as Arrivals<R>).get(id - ARRIVAL_BASE, this.clockSeen);
    }
    if (id >= INSERT_BASE) return this.atClock(this.overlay.insertedRecord(id) as R, this.world.nowMs);
    return this.kind.record(this.world, this.account, id);
  }

  /** An inserted record at an instant (the record itself, for kinds whose records never move). */
  private atClock(rec: R, nowMs: number): R {
    if (this.moves !== null) return this.moves(rec, nowMs);
    return this.kind.atClock === undefined ? rec : this.kind.atClock(rec, nowMs);
  }

  /**
   * Whether the record with this id was visible at `at`: a seeded one from its creation, an
   * arrival once its row appeared, an insert once written (from its creation, for writes that
   * came with a state import).
   */
  visibleAt(id: number, at: WriteMark): boolean {
    if (id >= INSERT_BASE && id < ARRIVAL_BASE) {
      const written = this.overlay.writtenAt(id);
      if (written !== undefined) return written.seq <= at.seq;
    }
    return this.appearedMs(id) <= at.ms;
  }

  /** When the record with this id became visible on the clock, ms (see `visibleAt`). */
  appearedMs(id: number): number {
    if (id >= ARRIVAL_BASE && this.arrivals?.appearMs !== undefined) return this.arrivals.appearMs(id - ARRIVAL_BASE);
    if (id >= INSERT_BASE && id < ARRIVAL_BASE) {
      const written = this.overlay.writtenAt(id);
      if (written !== undefined) return written.ms;
    }
    return this.kind.values.created(this.get(id)) * 1000;
  }

  /** A write that changes records in place (a restart sweep): every order and snapshot is dropped. For the World only. */
  touch(): void {
    this.dropOrders();
  }

  find(sid: string): number | undefined {
    const i = this.kind.index(this.world, this.account, sid, this.seeded);
    if (i !== undefined) return this.overlay.isDeleted(i) ? undefined : i;
    const inserted = this.overlay.insertedId(sid);
    if (inserted !== undefined || this.arrivals === null) return inserted;
    // An arrival is found once it has arrived, and only by its exact sid.
    const j = this.arrivals.index(sid);
    if (j === undefined || !this.has(ARRIVAL_BASE + j) || this.get(ARRIVAL_BASE + j).sid !== sid) return undefined;
    return ARRIVAL_BASE + j;
  }

  has(id: number): boolean {
    if (id >= ARRIVAL_BASE) {
      this.sync();
      const arrivals = this.arrivals as Arrivals<R>;
      return arrivals.has(id - ARRIVAL_BASE, this.clockSeen) && !this.overlay.isDeleted(id);
    }
    return id >= INSERT_BASE
      ? this.overlay.insertedRecord(id) !== undefined
      : id < this.seeded && !this.overlay.isDeleted(id);
  }

  snapshot(): (id: number) => R {
    this.sync();
    // One snapshot serves every reader until the next write: it never changes once made.
    if (this.lastSnapshot?.writes === this.writeCount) return this.lastSnapshot.get;
    const { kind, world, account, arrivals } = this;
    const now = this.clockSeen;
    // Seeded records are a pure function of the seed, arrivals of the seed and the clock; the
    // inserted ones are read through a frozen view of the writes (O(1): later writes go above it).
    const inserted = this.overlay.freeze();
    const get = (id: number) =>
      id >= ARRIVAL_BASE
        ? (arrivals as Arrivals<R>).get(id - ARRIVAL_BASE, now)
        : id >= INSERT_BASE
          ? this.atClock(inserted.insertedRecord(id) as R, now)
          : kind.record(world, account, id);
    this.lastSnapshot = { writes: this.writeCount, get };
    return get;
  }

  newestInserted(): number | undefined {
    if (this.newestStale) {
      this.newest = undefined;
      for (const [, rec] of this.overlay.insertedEntries()) {
        const created = this.kind.values.created(rec);
        if (this.newest === undefined || created > this.newest) this.newest = created;
      }
      this.newestStale = false;
    }
    return this.newest;
  }

  deletedIndexes(): number[] {
    return [...this.overlay.deletedIds()].sort((x, y) => x - y);
  }

  insertedRecords(): R[] {
    return Array.from(this.overlay.insertedEntries(), ([, rec]) => rec);
  }

  known(sid: string): boolean {
    if (this.find(sid) !== undefined || this.overlay.removedSid(sid)) return true;
    if (this.kind.index(this.world, this.account, sid, this.seeded) !== undefined) return true;
    if (this.arrivals === null) return false;
    const j = this.arrivals.index(sid);
    this.sync();
    return j !== undefined && this.arrivals.has(j, this.clockSeen) && this.arrivals.get(j, this.clockSeen).sid === sid;
  }

  /** Adds a record, written at `written` (absent: as old as it says); returns its id. For the World only (it marks the write). */
  insert(rec: R, written?: WriteMark): number {
    if (this.kind.movesWithClock?.(rec) === true) {
      this.sync();
      this.clockRecords++;
    }
    const id = this.overlay.insert(rec, written);
    const created = this.kind.values.created(rec);
    if (!this.newestStale && (this.newest === undefined || created > this.newest)) this.newest = created;
    this.dropOrders();
    return id;
  }

  /** Whether a record of this list was deleted in [fromMs, toMs] on the clock. */
  removedBetween(fromMs: number, toMs: number): boolean {
    return this.overlay.removedBetween(fromMs, toMs);
  }

  /** Removes a live record. For the World only. */
  remove(id: number): void {
    if (id >= INSERT_BASE && id < ARRIVAL_BASE) {
      this.newestStale = true;
      const rec = this.overlay.insertedRecord(id);
      if (rec !== undefined && this.kind.movesWithClock?.(rec) === true) this.clockRecords--;
    }
    this.overlay.remove(id, this.world.nowMs);
    this.dropOrders();
  }

  /**
   * A fork of `from`: the same seeded records (its account draws from the same streams), so the
   * sort columns and orders built of them are shared, not copied, and whatever either builds
   * later serves both; its writes start as `from`'s, shared copy-on-write, and go their own way.
   * O(1), however many writes `from` holds.
   */
  shareSeeded(from: Table<R, C, F>): void {
    this.columns = from.columns;
    this.groups = from.groups;
    this.seededOrders = from.seededOrders;
    this.overlay.shareFrom(from.overlay);
    this.clockRecords = from.clockRecords;
    this.newestStale = true;
    this.dropOrders();
  }

  /** The writes as they are now become what `clearWrites` goes back to. For the World only. */
  markForked(): void {
    this.forkedWith = { writes: this.overlay.mark(), clockRecords: this.clockRecords };
  }

  /**
   * What `clearWrites` goes back to, for a fork (null for any other table): the live inserted
   * records and deleted ids then, and the insert counter. A checkpoint writes it out.
   */
  forkBase(): { inserted: R[]; deleted: number[]; nextInsert: number } | null {
    if (this.forkedWith === null) return null;
    const base = new Overlay<R>();
    base.restore(this.forkedWith.writes);
    return {
      inserted: Array.from(base.insertedEntries(), ([, rec]) => rec),
      deleted: [...base.deletedIds()].sort((x, y) => x - y),
      nextInsert: base.nextInsert,
    };
  }

  /** Sets the insert counter, as a state import restores it. For the World only. */
  setNextInsert(n: number): void {
    this.overlay.nextInsert = n;
  }

  /** Back to the seeded records; the seeded orders stay built. For the World only. */
  clearWrites(): void {
    this.newest = undefined;
    this.newestStale = false;
    this.clockRecords = 0;
    this.overlay.clear();
    // A fork goes back to what it was forked with.
    if (this.forkedWith !== null) {
      this.overlay.restore(this.forkedWith.writes);
      this.clockRecords = this.forkedWith.clockRecords;
      this.newestStale = true;
    }
    this.dropOrders();
  }

  private dropOrders(): void {
    this.writeCount++;
    // Every change of the overlay passes here; a clock move (sync) takes it back off below.
    this.overlayCount++;
    this.overlayOrders.clear();
    this.filtered.clear();
  }

  get writes(): number {
    this.sync();
    return this.writeCount;
  }

  private overlayCount = 0;

  get overlayWrites(): number {
    return this.overlayCount;
  }

  order(sort: StoreSort<C | Created> | null): Order {
    return finish(this.prepare(sort, null)).order;
  }

  /**
   * The order, built where it is not cached yet: the seeded order (a key column and a radix
   * sort, which no write changes), then the writes merged in, then the filter applied (one pass,
   * cached, so the pages of a filtered walk are slices, like unfiltered ones). Merge and filter
   * read one snapshot of the writes, taken at the start: the result holds for that state, and is
   * cached only if no write landed meanwhile. One pass, however many writes come: no retries.
   */
  *prepare(sort: StoreSort<C | Created> | null, filter: RecordFilter<F> | null): Work<TableState<R>> {
    const seeded = yield* this.seededOrder(sort);
    const get = this.snapshot();
    const writes = this.writeCount;
    const arrived = this.arrivals === null ? 0 : this.arrivals.count(this.clockSeen);
    let order: Order;
    if (arrived === 0) {
      order = this.overlay.empty ? seeded : yield* this.merged(sort, seeded, get, writes, 0);
    } else if (this.overlay.empty && (sort === null || sort.column === 'created')) {
      // Every arrival is newer than every seeded record: the creation orders are the two runs
      // end to end, no merge (ten years of traffic merged would never end).
      order = this.creationRuns(sort, seeded);
    } else {
      order = yield* this.merged(sort, seeded, get, writes, arrived);
    }
    const kept = filter === null ? order : yield* this.kept(sort, order, filter, get, writes, order === seeded);
    return { order: kept, get };
  }

  /**
   * What follows reads `get`, the snapshot taken when the writes numbered `writes`: a result is
   * cached only if no write has landed since then (not since this step began, which may be later).
   */
  private *merged(
    sort: StoreSort<C | Created> | null,
    seeded: Order,
    get: (id: number) => R,
    writes: number,
    arrived: number,
  ): Work<Order> {
    const key = sortKey(sort);
    let merged = this.overlayOrders.get(key);
    if (merged !== undefined) return merged;
    // Few writes over an order that needs no merge of arrivals: a patch over it, made by a
    // binary search a write, rather than the whole order written out again after each write.
    const base =
      arrived === 0 ? seeded : sort === null || sort.column === 'created' ? this.creationRuns(sort, seeded) : null;
    if (base !== null && this.overlay.insertedCount + this.overlay.deletedCount <= PATCH_LIMIT) {
      const compare = this.comparator(sort, (id) => get(id).sid);
      const keyOf = this.keyOf(sort);
      const made = new Map<number, SortKey>();
      const record = (id: number) => {
        let k = made.get(id);
        if (k === undefined) {
          k = keyOf(get(id), id);
          made.set(id, k);
        }
        return k;
      };
      // Deleted inserts are gone from the inserts already; deleted seeded records and arrivals come out of the base.
      const deleted = [...this.overlay.deletedIds()].filter((id) => id < INSERT_BASE || id >= ARRIVAL_BASE);
      const inserted = Array.from(this.overlay.insertedEntries(), ([id]) => id);
      merged = yield* patchedOrder(base, deleted, inserted, (a, b) => compare(record(a), record(b)));
      if (writes === this.writeCount) this.overlayOrders.set(key, merged);
      return merged;
    }
    {
      // Arrivals are placed as inserts are: among the seeded order, by the same comparison.
      // Past MERGE_LIMIT (years of traffic) the merge would outgrow memory and take hours.
      const merging = this.overlay.insertedCount + arrived;
      if (merging > MERGE_LIMIT) throw new ValidationError('', problems.mergeTooLarge(merging, MERGE_LIMIT));
      const compare = this.comparator(sort, (id) => get(id).sid);
      // mergeOrder leaves out deleted seeded indexes; deleted arrivals are never added.
      const deleted = new Set<number>();
      const gone = new Set<number>();
      for (const id of this.overlay.deletedIds()) (id < INSERT_BASE ? deleted : gone).add(id);
      const inserted = Array.from(this.overlay.insertedEntries(), ([id]) => id);
      if (arrived > 0) {
        for (const j of (this.arrivals as Arrivals<R>).ids(this.clockSeen)) {
          if (!gone.has(ARRIVAL_BASE + j)) inserted.push(ARRIVAL_BASE + j);
          if (inserted.length % SLICE === 0) yield;
        }
      }
      // Each inserted record's (and arrival's) sort key is made once, not once a comparison: the
      // key alone is held (a value and a time), so two million of them fit in a few hundred MB.
      const keyOf = this.keyOf(sort);
      const made = new Map<number, SortKey>();
      for (let k = 0; k < inserted.length; k++) {
        const id = inserted[k] as number;
        made.set(id, keyOf(get(id), id));
        if (k % 1024 === 1023) yield;
      }
      const record = (id: number) => made.get(id) ?? keyOf(get(id), id);
      const perm = yield* mergeOrder(seeded, deleted, inserted, (a, b) => compare(record(a), record(b)));
      merged = permutationOrder(perm);
      if (writes === this.writeCount) this.overlayOrders.set(key, merged);
    }
    return merged;
  }

  /** A creation order with arrivals: the arrivals' run and the seeded one end to end (every arrival is newer). */
  private creationRuns(sort: StoreSort<C | Created> | null, seeded: Order): Order {
    const arrivals = (this.arrivals as Arrivals<R>).createdOrder(this.clockSeen, sort?.direction !== 'asc');
    return sort?.direction === 'asc' ? concatOrder(seeded, arrivals) : concatOrder(arrivals, seeded);
  }

  private *kept(
    sort: StoreSort<C | Created> | null,
    order: Order,
    filter: RecordFilter<F>,
    get: (id: number) => R,
    writes: number,
    seededOnly: boolean,
  ): Work<Order> {
    const key = `${sortKey(sort)}|${filter.key}`;
    let perm = this.filtered.get(key);
    if (perm === undefined) {
      // Past SCAN_LIMIT (years of traffic) the scan would take hours and its result outgrow memory.
      if (order.length > SCAN_LIMIT) throw new ValidationError('', problems.scanTooLarge(order.length, SCAN_LIMIT));
      // The seeded records are tested in their lean form, in index order, where the kind can;
      // the order is then walked once, each seeded record by its mark, the others made and tested.
      const marks =
        this.kind.keep === undefined ? null : yield* this.kind.keep(this.world, this.account, this.seeded, filter);
      perm =
        marks !== null && seededOnly
          ? yield* markedIds(order, marks)
          : yield* this.testedIds(order, marks, filter, get);
      if (writes !== this.writeCount) return permutationOrder(perm);
      if (this.filtered.size >= MAX_FILTERED) this.filtered.delete(this.filtered.keys().next().value as string);
    } else {
      this.filtered.delete(key);
    }
    this.filtered.set(key, perm);
    return permutationOrder(perm);
  }

  /** The ids of an order a filter keeps: a seeded record by its mark where there are marks, any other made and tested. */
  private *testedIds(
    order: Order,
    marks: Uint8Array | null,
    filter: RecordFilter<F>,
    get: (id: number) => R,
  ): Work<Uint32Array> {
    const seeded = this.seeded;
    let kept = new Uint32Array(1024);
    let count = 0;
    for (let p = 0; p < order.length; p++) {
      if (p % SLICE === 0) {
        yield* readyRange(order, p, p + SLICE);
        yield { step: 'Filtering', done: p, total: order.length };
      }
      const id = order.at(p);
      if (marks !== null && id < seeded ? marks[id] === 1 : filter.test(get(id))) {
        if (count === kept.length) {
          const grown = new Uint32Array(count * 2);
          grown.set(kept);
          kept = grown;
        }
        kept[count++] = id;
      }
    }
    return kept.slice(0, count);
  }

  private *seededOrder(sort: StoreSort<C | Created> | null): Work<Order> {
    if (sort === null || sort.column === 'created') {
      return sort?.direction === 'asc' ? reverseIndexOrder(this.seeded) : indexOrder(this.seeded);
    }
    const key = sortKey(sort);
    let perm = this.seededOrders.get(key);
    if (perm === undefined) {
      const name = sort.column as C;
      const orders = this.seededOrders;
      const otherWay = sort.direction === 'asc' ? 'desc' : 'asc';
      const other = orders.get(sortKey({ column: name, direction: otherWay }));
      const groups = this.groups.get(name);
      if (other !== undefined && groups !== undefined) {
        // The order the other way and the key groups make this one: no key drawn again.
        perm = yield* reverseGroups(other, groups, otherWay === 'asc');
      } else {
        perm = yield* this.sortedByColumn(name, sort.direction);
      }
      orders.set(key, perm);
      const made = perm;
      builtOrders.add(made, made.byteLength, () => orders.get(key) === made && orders.delete(key));
    } else {
      builtOrders.use(perm);
    }
    return permutationOrder(perm);
  }

  /**
   * An order by a column, from its keys. Keys of one 16-bit digit are not kept once sorted (at
   * fifty million calls a column is 200 MB, as much as an order): their groups are, and turn
   * this order into the other direction's. Wider keys are kept, within the budget.
   */
  private *sortedByColumn(name: C, direction: 'asc' | 'desc'): Work<Uint32Array> {
    const columns = this.columns;
    let column = columns.get(name);
    if (column === undefined) {
      column = yield* this.kind.column(this.world, this.account, this.seeded, name);
      if (groupable(column)) {
        const perm = yield* sortPermutation(column, direction);
        this.groups.set(name, yield* keyGroups(column));
        return perm;
      }
      columns.set(name, column);
      const made = column;
      const bytes = made.words.reduce((sum, w) => sum + w.byteLength, 0);
      builtOrders.add(made, bytes, () => columns.get(name) === made && columns.delete(name));
    } else {
      builtOrders.use(column);
    }
    return yield* sortPermutation(column, direction);
  }

  /** The sort key of a record: the sorted column's value (none for creation orders) and its creation time. */
  private keyOf(sort: StoreSort<C | Created> | null): (rec: R, id: number) => SortKey {
    const { values } = this.kind;
    const created = values.created;
    if (sort === null || sort.column === 'created') return (rec, id) => ({ v: 0, c: created(rec), id });
    const value = values[sort.column as C];
    return (rec, id) => ({ v: value(rec), c: created(rec), id });
  }

  /** How the order compares any two records, seeded or inserted, by their keys (see `sortComparator`). */
  private comparator(
    sort: StoreSort<C | Created> | null,
    sidOf: (id: number) => string,
  ): (a: SortKey, b: SortKey) => number {
    return sortComparator(sort, { value: (k) => k.v, created: (k) => k.c, sid: (k) => sidOf(k.id) });
  }

  recordKey(sort: StoreSort<C | Created> | null): (rec: R) => RecordKey {
    const keyOf = this.keyOf(sort);
    return (rec) => {
      const { v, c } = keyOf(rec, 0);
      return { v, c, sid: rec.sid };
    };
  }
}
