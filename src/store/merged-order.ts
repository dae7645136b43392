import { problems, ValidationError } from '../errors';
import { type Order, SLICE, type Work } from './order';
import { sortComparator } from './sort-keys';
import { MERGE_LIMIT } from './table';
import type { RecordKey, StoreSort, TableState } from './table-contracts';

/** One account's part of a list over several accounts: its order and records as they were read, and how to key them. */
export interface MergePart<R> {
  state: TableState<R>;
  key: (rec: R) => RecordKey;
}

/**
 * A reference to one record of a merged list: its part's index times REF_SPAN, plus its id in
 * that part's table. Ids stay below 2 ** 32 (they are held in Uint32Arrays), and a double holds
 * 2 ** 21 parts' worth of references exactly.
 */
export const REF_SPAN = 2 ** 32;

/** The part a merged reference is in. @example partOf(2 ** 32 + 5) // 1 */
export function partOf(ref: number): number {
  return Math.floor(ref / REF_SPAN);
}

/** The record id a merged reference names in its part's table. @example idOf(2 ** 32 + 5) // 5 */
export function idOf(ref: number): number {
  return ref % REF_SPAN;
}

/**
 * Several accounts' orders of one list (same sort, same filter) as one order, by the rule every
 * order follows (`sortComparator`): what production's `account_sid IN (…)` query returns. The
 * largest part is the base and is never copied or read whole: the other parts' records are sorted
 * among themselves and each placed in it by binary search, so a parent of ten million calls with a
 * few small sub-accounts merges in milliseconds. Positions answer merged references (`partOf`,
 * `idOf`).
 */
export function* mergeParts<R>(parts: readonly MergePart<R>[], sort: StoreSort<string> | null): Work<Order> {
  let base = 0;
  for (let i = 1; i < parts.length; i++) {
    if ((parts[i] as MergePart<R>).state.order.length > (parts[base] as MergePart<R>).state.order.length) base = i;
  }
  const others: { ref: number; key: RecordKey }[] = [];
  let merging = 0;
  for (let i = 0; i < parts.length; i++) if (i !== base) merging += (parts[i] as MergePart<R>).state.order.length;
  if (merging > MERGE_LIMIT) throw new ValidationError('', problems.mergeTooLarge(merging, MERGE_LIMIT));
  for (let i = 0; i < parts.length; i++) {
    if (i === base) continue;
    const { state, key } = parts[i] as MergePart<R>;
    for (let p = 0; p < state.order.length; p++) {
      const id = state.order.at(p);
      others.push({ ref: i * REF_SPAN + id, key: key(state.get(id)) });
      if (others.length % SLICE === 0) yield;
    }
  }
  const compare = sortComparator<RecordKey>(sort, { value: (k) => k.v, created: (k) => k.c, sid: (k) => k.sid });
  others.sort((a, b) => compare(a.key, b.key));
  const { state: baseState, key: baseKey } = parts[base] as MergePart<R>;
  const baseOrder = baseState.order;
  const n = baseOrder.length;
  // at[i]: the merged position of the i-th other record (the base records before it, plus i).
  const at = new Float64Array(others.length);
  const refs = new Float64Array(others.length);
  let lo = 0;
  for (let i = 0; i < others.length; i++) {
    const { ref, key } = others[i] as { ref: number; key: RecordKey };
    // The first base position that comes after this record; never before the previous one's.
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compare(baseKey(baseState.get(baseOrder.at(mid))), key) < 0) lo = mid + 1;
      else hi = mid;
    }
    at[i] = lo + i;
    refs[i] = ref;
    if (i % 1024 === 1023) yield;
  }
  const baseRef = base * REF_SPAN;
  return {
    length: n + others.length,
    at(position: number): number {
      // How many other records sit at or before this position, by binary search over their places.
      let a = 0;
      let b = at.length;
      while (a < b) {
        const mid = (a + b) >>> 1;
        if ((at[mid] as number) <= position) a = mid + 1;
        else b = mid;
      }
      if (a > 0 && at[a - 1] === position) return refs[a - 1] as number;
      return baseRef + baseOrder.at(position - a);
    },
  };
}
