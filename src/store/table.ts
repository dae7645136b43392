import type { SortSpec } from '../query/sort';
import { newTableId, permutationOrder, type Order } from './order';
import { INSERT_BASE, mergeOrder, Overlay } from './overlay';

const MAX_FILTERED = 32;

/**
 * One list of one account: seeded records made on read, plus admin writes in an overlay.
 * Subclasses say how seeded records are made, found by sid and ordered; this class keeps the
 * writes and the orders of a written list.
 */
export abstract class Table<R extends { sid: string; index: number }, A extends string> {
  /** Unique in the process, for caches keyed by table. */
  readonly id = newTableId();
  /** Admin writes: inserted records (ids from INSERT_BASE) and deleted seeded ones. */
  readonly overlay = new Overlay<R>();
  private readonly overlayOrders = new Map<string, Uint32Array>();
  /** Filtered orders, most recent last; a few dozen at most, dropped on any write. */
  private readonly filtered = new Map<string, Uint32Array>();

  /** @param seeded how many records the seed makes */
  constructor(readonly seeded: number) {}

  protected abstract seededRecord(index: number): R;
  /** The seeded index a sid stands for, if any (below `seeded`). */
  protected abstract seededIndex(sid: string): number | undefined;
  /** The order of the seeded records alone. */
  protected abstract seededOrder(sort: SortSpec<A> | null): Order;
  /** How the order compares any two records: the same rule the seeded order follows. */
  protected abstract comparator(sort: SortSpec<A> | null): (a: R, b: R) => number;

  /** Records in the list now. */
  get count(): number {
    return this.seeded - this.overlay.deleted.size + this.overlay.inserted.size;
  }

  /** The record with this id: a seeded index, or an inserted id. */
  get(id: number): R {
    return id >= INSERT_BASE ? (this.overlay.inserted.get(id) as R) : this.seededRecord(id);
  }

  /** The id of the live record with this sid, or undefined. */
  find(sid: string): number | undefined {
    const i = this.seededIndex(sid);
    if (i !== undefined) return this.overlay.deleted.has(i) ? undefined : i;
    for (const [id, rec] of this.overlay.inserted) if (rec.sid === sid) return id;
    return undefined;
  }

  /** Adds a record built by the caller (its `index` is set here); returns its id. */
  insert(rec: R): number {
    const id = INSERT_BASE + this.overlay.nextInsert++;
    rec.index = id;
    this.overlay.inserted.set(id, rec);
    this.dropOrders();
    return id;
  }

  remove(id: number): void {
    if (id >= INSERT_BASE) this.overlay.inserted.delete(id);
    else this.overlay.deleted.add(id);
    this.dropOrders();
  }

  private dropOrders(): void {
    this.overlayOrders.clear();
    this.filtered.clear();
  }

  /** Back to the seeded records; the seeded orders stay built. */
  clearWrites(): void {
    this.overlay.clear();
    this.dropOrders();
  }

  /**
   * The order for a SortBy, keeping only records the filter passes. Built once by one pass over
   * the order and cached, so the pages of a filtered walk are slices, like unfiltered ones.
   */
  filteredOrder(sort: SortSpec<A> | null, filter: { key: string; test(record: R): boolean }): Order {
    const key = `${sort === null ? 'default' : `${sort.attribute}:${sort.direction}`}|${filter.key}`;
    let perm = this.filtered.get(key);
    if (perm === undefined) {
      const order = this.order(sort);
      const kept: number[] = [];
      for (let p = 0; p < order.length; p++) {
        const id = order.at(p);
        if (filter.test(this.get(id))) kept.push(id);
      }
      perm = Uint32Array.from(kept);
      if (this.filtered.size >= MAX_FILTERED) this.filtered.delete(this.filtered.keys().next().value as string);
    } else {
      this.filtered.delete(key);
    }
    this.filtered.set(key, perm);
    return permutationOrder(perm);
  }

  /** The list order for a SortBy (null: the default, `date_created` descending). */
  order(sort: SortSpec<A> | null): Order {
    const seededOrder = this.seededOrder(sort);
    if (this.overlay.empty) return seededOrder;
    const key = sort === null ? 'default' : `${sort.attribute}:${sort.direction}`;
    let perm = this.overlayOrders.get(key);
    if (perm === undefined) {
      const compare = this.comparator(sort);
      perm = mergeOrder(seededOrder, this.overlay.deleted, this.overlay.inserted.keys(), (a, b) => compare(this.get(a), this.get(b)));
      this.overlayOrders.set(key, perm);
    }
    return permutationOrder(perm);
  }
}
