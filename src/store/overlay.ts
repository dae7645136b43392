import { ARRIVAL_BASE, type Order, SLICE, type Work } from './order';

/**
 * A moment of the store: the clock, and how many writes the process had made (the clock may stand
 * still while writes come, so only the count orders a write and a read made at one instant).
 */
export interface WriteMark {
  ms: number;
  seq: number;
}

let writes = 0;
/** The mark of a write made now, at `ms` on its account's clock: each is later than every one before. */
export const markWrite = (ms: number): WriteMark => ({ ms, seq: ++writes });
/** The mark of a read made now: after every write so far. */
export const markRead = (ms: number): WriteMark => ({ ms, seq: writes });

/** Inserted records get ids from here up; seeded indexes stay below (at most 50,000,000). */
export const INSERT_BASE = 2 ** 26;

/** Whether an id is a seeded record's (below the inserts and the arrivals): the seed makes it, whatever was written. */
export const isSeededId = (id: number): boolean => id < INSERT_BASE;

/** Ids of inserted records: the rest (seeded indexes below, arrivals from ARRIVAL_BASE) are not. */
const isInsertId = (id: number) => id >= INSERT_BASE && id < ARRIVAL_BASE;

/**
 * One layer of writes. A layer is frozen once shared (by a fork, a snapshot, or what a sandbox
 * resets to): writes then go to a new layer on top, so what the others see never changes.
 */
interface Layer<R> {
  readonly below: Layer<R> | null;
  readonly depth: number;
  /** Records inserted in this layer, by id. */
  readonly inserted: Map<number, R>;
  /** Ids deleted in this layer: seeded indexes, arrivals, and records inserted in a layer below. */
  readonly deleted: Set<number>;
  /** Ids of this layer's inserts by sid. */
  readonly bySid: Map<string, number>;
  /** Sids of inserted records deleted in this layer. */
  readonly removed: Set<string>;
  /** When this layer's inserts were written: ms on the clock and the write's sequence number, where known. */
  readonly written: Map<number, WriteMark>;
  /** When this layer's deletions were made (ms on the clock), in order: what the walks report reads. */
  readonly removedAt: number[];
  /** Live inserted records in this layer and those below. */
  insertedCount: number;
  /** Deleted seeded indexes and arrivals in this layer and those below. */
  deletedCount: number;
  /** Inserts ever made, deleted or not: the next insert's stream and id. */
  nextInsert: number;
  /** Read by a snapshot, or shared: never written again. */
  frozen: boolean;
  /** Shared with another overlay (a fork's parent, or what a sandbox resets to): never folded away. */
  shared: boolean;
}

function layerOn<R>(below: Layer<R> | null): Layer<R> {
  return {
    below,
    depth: below === null ? 1 : below.depth + 1,
    inserted: new Map(),
    deleted: new Set(),
    bySid: new Map(),
    removed: new Set(),
    written: new Map(),
    removedAt: [],
    insertedCount: below?.insertedCount ?? 0,
    deletedCount: below?.deletedCount ?? 0,
    nextInsert: below?.nextInsert ?? 0,
    frozen: false,
    shared: false,
  };
}

/** Layers deeper than this are folded when a write comes: reads walk at most this many. */
const MAX_DEPTH = 12;

/**
 * What a reader holds of an overlay at one moment (a page rendered over many turns of the event
 * loop): it never changes, whatever is written later. Taking one is O(1).
 */
export class OverlayView<R extends { sid: string }> {
  constructor(protected top: Layer<R>) {}

  /** The inserted record with this id, if it is live. */
  insertedRecord(id: number): R | undefined {
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) {
      if (l.deleted.has(id)) return undefined;
      const rec = l.inserted.get(id);
      if (rec !== undefined) return rec;
    }
    return undefined;
  }
}

/**
 * The admin writes of one list: inserted records and deleted seeded ones (and arrivals). The
 * seeded records are never copied; an order of an account with writes is its seeded order with
 * the deleted indexes left out and the inserted records placed by binary search, built once per
 * state and cached.
 *
 * Copy-on-write: a fork shares its parent's writes as a frozen layer, and each side writes on a
 * layer of its own on top, so a fork is O(1) in time and memory however many writes the parent
 * holds (300 forks of 100,000 inserts copied 13.7 MB each, and the heap ran out).
 */
export class Overlay<R extends { sid: string }> extends OverlayView<R> {
  constructor() {
    super(layerOn<R>(null));
  }

  get empty(): boolean {
    return this.top.insertedCount === 0 && this.top.deletedCount === 0;
  }

  /** Live inserted records. */
  get insertedCount(): number {
    return this.top.insertedCount;
  }

  /** Deleted seeded records and arrivals. */
  get deletedCount(): number {
    return this.top.deletedCount;
  }

  get nextInsert(): number {
    return this.top.nextInsert;
  }

  set nextInsert(n: number) {
    this.own().nextInsert = n;
  }

  /** Whether a seeded index or an arrival was deleted. */
  isDeleted(id: number): boolean {
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) if (l.deleted.has(id)) return true;
    return false;
  }

  /** The id of the inserted record with this sid, if it is still there. */
  insertedId(sid: string): number | undefined {
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) {
      const id = l.bySid.get(sid);
      if (id !== undefined) return id;
      if (l.removed.has(sid)) return undefined;
    }
    return undefined;
  }

  /** Whether an inserted record with this sid was deleted (and not inserted again since). */
  removedSid(sid: string): boolean {
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) {
      if (l.bySid.has(sid)) return false;
      if (l.removed.has(sid)) return true;
    }
    return false;
  }

  /** The live inserted records with their ids, in insert order (ids ascend with it). */
  *insertedEntries(): Generator<[number, R]> {
    const layers: Layer<R>[] = [];
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) layers.push(l);
    for (let k = layers.length - 1; k >= 0; k--) {
      for (const [id, rec] of (layers[k] as Layer<R>).inserted) {
        // Deleted in a layer above this one?
        let live = true;
        for (let j = k - 1; j >= 0 && live; j--) live = !(layers[j] as Layer<R>).deleted.has(id);
        if (live) yield [id, rec];
      }
    }
  }

  /** Deleted seeded indexes and arrivals, in no order. */
  *deletedIds(): Generator<number> {
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) {
      for (const id of l.deleted) if (!isInsertId(id)) yield id;
    }
  }

  /** When the inserted record with this id was written, if known. */
  writtenAt(id: number): WriteMark | undefined {
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) {
      const ms = l.written.get(id);
      if (ms !== undefined) return ms;
    }
    return undefined;
  }

  /** Whether a deletion was made in [fromMs, toMs] on the clock. */
  removedBetween(fromMs: number, toMs: number): boolean {
    for (let l: Layer<R> | null = this.top; l !== null; l = l.below) {
      if (l.removedAt.some((ms) => ms >= fromMs && ms <= toMs)) return true;
    }
    return false;
  }

  insert(rec: R, written?: WriteMark): number {
    const top = this.own();
    const id = INSERT_BASE + top.nextInsert++;
    top.inserted.set(id, rec);
    if (written !== undefined) top.written.set(id, written);
    top.bySid.set(rec.sid, id);
    top.removed.delete(rec.sid);
    top.insertedCount++;
    return id;
  }

  /** Deletes a live record (the Table checks it is one), at `atMs` on the clock if given. */
  remove(id: number, atMs?: number): void {
    const rec = isInsertId(id) ? this.insertedRecord(id) : undefined;
    const top = this.own();
    if (atMs !== undefined) top.removedAt.push(atMs);
    if (rec === undefined) {
      top.deleted.add(id);
      top.deletedCount++;
      return;
    }
    if (top.inserted.delete(id)) top.bySid.delete(rec.sid);
    else top.deleted.add(id);
    top.removed.add(rec.sid);
    top.insertedCount--;
  }

  /** A view that never changes: later writes go to a layer above it. O(1). */
  freeze(): OverlayView<R> {
    this.top.frozen = true;
    return new OverlayView(this.top);
  }

  /** The same writes as `other`, shared, not copied: O(1). Either side's next write goes to a layer of its own. */
  shareFrom(other: Overlay<R>): void {
    other.top.frozen = true;
    other.top.shared = true;
    this.top = other.top;
  }

  /** What `restore` goes back to: the writes as they are now, shared. */
  mark(): Layer<R> {
    this.top.frozen = true;
    this.top.shared = true;
    return this.top;
  }

  /** Back to the writes `mark` returned. */
  restore(marked: Layer<R>): void {
    this.top = marked;
  }

  clear(): void {
    this.top = layerOn<R>(null);
  }

  /**
   * The top layer, this overlay's own: a new one over a frozen one. Past MAX_DEPTH, the layers
   * above the nearest shared one (snapshots taken between writes) fold into one, O(this side's
   * own writes), so the parent's writes stay shared; a chain of shared layers that deep (forks of
   * forks) folds whole.
   */
  private own(): Layer<R> {
    if (!this.top.frozen) return this.top;
    if (this.top.depth < MAX_DEPTH) {
      this.top = layerOn(this.top);
      return this.top;
    }
    let base = this.top.below;
    while (base !== null && !base.shared) base = base.below;
    this.top = this.foldOnto(base !== null && base.depth < MAX_DEPTH - 1 ? base : null);
    return this.top;
  }

  /** The live writes of the layers above `base` (all of them when null) as one new layer on it. */
  private foldOnto(base: Layer<R> | null): Layer<R> {
    const layers: Layer<R>[] = [];
    for (let l: Layer<R> | null = this.top; l !== base && l !== null; l = l.below) layers.push(l);
    const one = layerOn<R>(base);
    for (let k = layers.length - 1; k >= 0; k--) {
      const l = layers[k] as Layer<R>;
      for (const [id, ms] of l.written) one.written.set(id, ms);
      one.removedAt.push(...l.removedAt);
      for (const [id, rec] of l.inserted) {
        one.inserted.set(id, rec);
        one.bySid.set(rec.sid, id);
        one.removed.delete(rec.sid);
      }
      for (const id of l.deleted) {
        const rec = one.inserted.get(id);
        if (rec === undefined) {
          one.deleted.add(id);
        } else {
          one.inserted.delete(id);
          one.bySid.delete(rec.sid);
        }
      }
      for (const sid of l.removed) if (!one.bySid.has(sid)) one.removed.add(sid);
    }
    one.insertedCount = this.top.insertedCount;
    one.deletedCount = this.top.deletedCount;
    one.nextInsert = this.top.nextInsert;
    return one;
  }
}

/** What `Overlay.mark` returns: a sandbox's writes at its fork. */
export type OverlayMark<R extends { sid: string }> = ReturnType<Overlay<R>['mark']>;

/** Comparisons between two yields: a comparison may make a record (micro-seconds), so fewer than SLICE items. */
const COMPARES = 2048;

/**
 * `ids` sorted by `compare`, stably, in slices: a bottom-up merge sort that yields every
 * COMPARES comparisons. Sorting the arrivals of four weeks of traffic at once held the event
 * loop for 17 s.
 * @example finish(sortSliced([3, 1, 2], (a, b) => a - b)) // [1, 2, 3]
 */
export function* sortSliced(ids: readonly number[], compare: (a: number, b: number) => number): Work<number[]> {
  const n = ids.length;
  let src = ids.slice();
  let dst = new Array<number>(n);
  let work = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        dst[k++] = compare(src[j] as number, src[i] as number) < 0 ? (src[j++] as number) : (src[i++] as number);
        if (++work % COMPARES === 0) yield;
      }
      while (i < mid) dst[k++] = src[i++] as number;
      while (j < hi) dst[k++] = src[j++] as number;
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/**
 * `base` (seeded indexes in order) without `deleted`, with the inserted ids placed where
 * `compare` puts them. `compare` orders any two ids, seeded or inserted, totally.
 * O(n + m·log n) for n seeded and m inserted records.
 * Work in slices (see `Work`).
 * @example finish(mergeOrder(indexOrder(3), new Set([1]), [9], (a, b) => a - b)) // Uint32Array [0, 2, 9]
 */
export function* mergeOrder(
  base: Order,
  deleted: ReadonlySet<number>,
  inserted: Iterable<number>,
  compare: (a: number, b: number) => number,
): Work<Uint32Array> {
  const kept = new Uint32Array(base.length - deleted.size);
  let n = 0;
  for (let p = 0; p < base.length; p++) {
    const i = base.at(p);
    if (!deleted.has(i)) kept[n++] = i;
    if (p % SLICE === 0) yield;
  }
  const extra = yield* sortSliced([...inserted], compare);
  // Where each inserted record goes among the kept ones: the first kept record after it. Few
  // inserts among many kept records: a binary search each (m·log n comparisons); many: one walk
  // along both (n + m), whichever compares less. Either way in slices.
  const slots = new Uint32Array(extra.length);
  if (extra.length * Math.log2(n + 1) < n) {
    for (let e = 0; e < extra.length; e++) {
      const id = extra[e] as number;
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (compare(kept[mid] as number, id) < 0) lo = mid + 1;
        else hi = mid;
      }
      slots[e] = lo;
      if (e % 64 === 63) yield;
    }
  } else {
    let p = 0;
    for (let e = 0; e < extra.length; e++) {
      const id = extra[e] as number;
      while (p < n && compare(kept[p] as number, id) < 0) {
        p++;
        if (p % COMPARES === 0) yield;
      }
      slots[e] = p;
      if (e % COMPARES === COMPARES - 1) yield;
    }
  }
  const out = new Uint32Array(n + extra.length);
  let k = 0;
  let e = 0;
  for (let p = 0; p <= n; p++) {
    while (e < extra.length && slots[e] === p) out[k++] = extra[e++] as number;
    if (p < n) out[k++] = kept[p] as number;
    if (p % SLICE === 0) yield;
  }
  return out;
}
