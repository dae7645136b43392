import { type Order, readyRange, type Work } from './order';

/** Binary searches between two yields. */
const SEARCHES_PER_SLICE = 64;

/**
 * `base` without `deleted`, with `inserted` placed where `compare` puts them: what `mergeOrder`
 * writes out, kept as a patch over `base` instead. A handful of writes to a 10M-call account
 * made `mergeOrder` copy all ten million ids again after every insert (a walk with writes among
 * its pages fell from 7,000 to 118 pages a second); this costs a binary search a write to make
 * and two small ones a position to read. `base` must be in `compare`'s order, as the orders the
 * table merges into are. O((m + d)·log n) to make, for m inserted and d deleted ids.
 * @example finish(patchedOrder(indexOrder(3), [1], [9], (a, b) => a - b)) // at(0..2): 0, 2, 9
 */
export function* patchedOrder(
  base: Order,
  deleted: Iterable<number>,
  inserted: readonly number[],
  compare: (a: number, b: number) => number,
): Work<Order> {
  /** The first base position not before `id` (its own, when `id` is there). */
  const place = (id: number, from: number) => {
    let lo = from;
    let hi = base.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(base.at(mid), id) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const gone: number[] = [];
  let searched = 0;
  for (const id of deleted) {
    const at = place(id, 0);
    // A deleted id this base does not hold (an arrival of another order) takes nothing out.
    if (at < base.length && base.at(at) === id) gone.push(at);
    if (++searched % SEARCHES_PER_SLICE === 0) yield;
  }
  const removed = Int32Array.from(gone.sort((a, b) => a - b));
  const ids = [...inserted].sort(compare);
  /** Where each inserted id lands in the patched order: increasing. */
  const landed = new Float64Array(ids.length);
  let slot = 0;
  let removedBefore = 0;
  for (let e = 0; e < ids.length; e++) {
    slot = place(ids[e] as number, slot);
    while (removedBefore < removed.length && (removed[removedBefore] as number) < slot) removedBefore++;
    landed[e] = slot - removedBefore + e;
    if (++searched % SEARCHES_PER_SLICE === 0) yield;
  }
  const m = ids.length;
  const d = removed.length;
  const order: Order = {
    length: base.length - d + m,
    at(p) {
      // Inserted ids landed before p, and whether p is one of them.
      let lo = 0;
      let hi = m;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((landed[mid] as number) < p) lo = mid + 1;
        else hi = mid;
      }
      if (lo < m && landed[lo] === p) return ids[lo] as number;
      // The kept base record of rank r: past the j removed positions before it, j the first
      // with removed[j] - j > r (removed[j] - j never falls).
      const r = p - lo;
      let a = 0;
      let b = d;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if ((removed[mid] as number) - mid > r) b = mid;
        else a = mid + 1;
      }
      return base.at(r + a);
    },
  };
  if (base.ready !== undefined) {
    // Position p of the patch is position p - m to p + d of the base.
    order.ready = (from, to) => readyRange(base, Math.max(0, from - m), Math.min(base.length, to + d));
  }
  return order;
}
