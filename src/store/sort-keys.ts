import type { StoreSort } from './table-contracts';

/**
 * How every order compares two records, by any reading of their keys: production's ORDER BY,
 * then `date_created` descending, then sid for a total order (read only on a tie, which is rare).
 * The seeded orders follow it, the merges of writes use it, and so does a list over several
 * accounts (SubAccounts=true), so that each account's order is a subsequence of the merged one.
 * @example sortComparator(null, { value: () => 0, created: (k) => k.c, sid: (k) => k.s })({ c: 2, s: 'a' }, { c: 1, s: 'b' }) // -1
 */
export function sortComparator<K>(
  sort: StoreSort<string> | null,
  read: { value: (k: K) => string | number; created: (k: K) => number; sid: (k: K) => string },
): (a: K, b: K) => number {
  const { value, created, sid } = read;
  const bySid = (a: K, b: K) => {
    const x = sid(a);
    const y = sid(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };
  const newest = (a: K, b: K) => created(b) - created(a) || bySid(a, b);
  if (sort === null) return newest;
  const sign = sort.direction === 'asc' ? 1 : -1;
  if (sort.column === 'created') return (a, b) => sign * (created(a) - created(b)) || bySid(a, b);
  return (a, b) => {
    const x = value(a);
    const y = value(b);
    return (x < y ? -sign : x > y ? sign : 0) || newest(a, b);
  };
}
