/** A list order: position in the list → record index. A page is a slice of positions. */
export interface Order {
  readonly length: number;
  at(position: number): number;
}

/** Index order: `date_created` descending, since creation time falls as the index grows. */
export function indexOrder(length: number): Order {
  return { length, at: (p) => p };
}

/** Reverse index order: `date_created` ascending. */
export function reverseIndexOrder(length: number): Order {
  return { length, at: (p) => length - 1 - p };
}

export function permutationOrder(perm: Uint32Array): Order {
  return { length: perm.length, at: (p) => perm[p] as number };
}

/**
 * Indexes 0..n-1 sorted by `compare`, ties by index ascending, which is `date_created`
 * descending: production's tie-breaker for every attribute but DateCreated. Creation times are
 * distinct, so the order is total and the same on every run.
 */
export function sortedPermutation(n: number, compare: (a: number, b: number) => number): Uint32Array {
  const perm = new Uint32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  return perm.sort((a, b) => compare(a, b) || a - b);
}

/** Compares by UTF-16 code unit, as the database's binary collation does; never by locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
