import { type Order, SLICE, type Work } from './order';

/** Inserted records get ids from here up; seeded indexes stay below (at most 50,000,000). */
export const INSERT_BASE = 2 ** 26;

/**
 * The admin writes of one list: inserted records and deleted seeded ones. The seeded records are
 * never copied; an order of an account with writes is its seeded order with the deleted indexes
 * left out and the inserted records placed by binary search, built once per state and cached.
 */
export class Overlay<R extends { sid: string }> {
  readonly inserted = new Map<number, R>();
  readonly deleted = new Set<number>();
  /** Inserted ids by sid: a state import of many inserts finds each in O(1). */
  private readonly bySid = new Map<string, number>();
  /** Sids of inserted records since deleted: such a sid answers 404 here, not 403 (see Table.known). */
  private readonly removed = new Set<string>();
  /** Counts inserts ever made, deleted or not: the next insert's stream and id. */
  nextInsert = 0;

  get empty(): boolean {
    return this.inserted.size === 0 && this.deleted.size === 0;
  }

  /** Whether an inserted record with this sid was deleted. */
  removedSid(sid: string): boolean {
    return this.removed.has(sid);
  }

  /** The id of the inserted record with this sid, if it is still there. */
  insertedId(sid: string): number | undefined {
    return this.bySid.get(sid);
  }

  insert(rec: R): number {
    const id = INSERT_BASE + this.nextInsert++;
    this.inserted.set(id, rec);
    this.bySid.set(rec.sid, id);
    return id;
  }

  remove(id: number): void {
    const rec = this.inserted.get(id);
    if (rec === undefined) {
      this.deleted.add(id);
    } else {
      this.inserted.delete(id);
      this.bySid.delete(rec.sid);
      this.removed.add(rec.sid);
    }
  }

  /** The same writes as `other` (records are never changed once inserted, so they are shared). */
  copyFrom(other: Overlay<R>): void {
    for (const [id, rec] of other.inserted) this.inserted.set(id, rec);
    for (const id of other.deleted) this.deleted.add(id);
    for (const [sid, id] of other.bySid) this.bySid.set(sid, id);
    for (const sid of other.removed) this.removed.add(sid);
    this.nextInsert = other.nextInsert;
  }

  clear(): void {
    this.inserted.clear();
    this.deleted.clear();
    this.bySid.clear();
    this.removed.clear();
    this.nextInsert = 0;
  }
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
  const extra = [...inserted].sort(compare);
  // Where each inserted record goes among the kept ones: the first kept record after it.
  const slots = extra.map((id) => {
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(kept[mid] as number, id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
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
