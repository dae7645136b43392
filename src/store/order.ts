import { collationKey } from '../generators/collation';

/** A list order: position in the list → record index. A page is a slice of positions. */
export interface Order {
  readonly length: number;
  at(position: number): number;
  /**
   * Work that makes `at` cheap for positions from..to-1, in slices, for orders placed on demand
   * (see windowed-order.ts); absent where `at` is always cheap. `at` works without it, at once.
   */
  ready?(from: number, to: number): Work<void>;
}

/** Readies positions from..to-1 of an order (nothing to do for most orders). */
export function* readyRange(order: Order, from: number, to: number): Work<void> {
  if (order.ready !== undefined && to > from) yield* order.ready(Math.max(0, from), Math.min(to, order.length));
}

/**
 * The ids of an order of seeded records whose mark is set (`marks[id]` 1, else 0), in the
 * order's order: sized by a count first, and written without a branch a record (a tenth of
 * them mispredicted would double a walk of fifty million).
 * @example finish(markedIds(indexOrder(4), Uint8Array.of(1, 0, 1, 1))) // Uint32Array [0, 2, 3]
 */
export function* markedIds(order: Order, marks: Uint8Array): Work<Uint32Array> {
  let count = 0;
  for (let id = 0; id < marks.length; id++) {
    count += marks[id] as number;
    if (id % SLICE === 0) yield { step: 'Filtering', done: 0, total: order.length };
  }
  const kept = new Uint32Array(count + 1);
  let c = 0;
  for (let p = 0; p < order.length; p++) {
    if (p % SLICE === 0) {
      yield* readyRange(order, p, p + SLICE);
      yield { step: 'Filtering', done: p, total: order.length };
    }
    const id = order.at(p);
    kept[c] = id;
    c += marks[id] as number;
  }
  return kept.subarray(0, count);
}

/** Index order: `date_created` descending, since creation time falls as the index grows. */
export function indexOrder(length: number): Order {
  return { length, at: (p) => p };
}

/** Reverse index order: `date_created` ascending. */
export function reverseIndexOrder(length: number): Order {
  return { length, at: (p) => length - 1 - p };
}

/** Arrivals of live traffic get ids from here up (inserts are below, from 2 ** 26): arrival j is `ARRIVAL_BASE + j`. */
export const ARRIVAL_BASE = 2 ** 27;

/**
 * One order, then another: both runs whole, no copy.
 * @example concatOrder(indexOrder(2), indexOrder(1)) // ids 0, 1, 0
 */
export function concatOrder(first: Order, second: Order): Order {
  const n = first.length;
  const order: Order = { length: n + second.length, at: (p) => (p < n ? first.at(p) : second.at(p - n)) };
  if (first.ready === undefined && second.ready === undefined) return order;
  order.ready = function* (from, to) {
    yield* readyRange(first, from, Math.min(to, n));
    yield* readyRange(second, from - n, to - n);
  };
  return order;
}

/**
 * The ids of `count` arrivals of live traffic (see overlay.ts), newest first or oldest first.
 * @example arrivalOrder(2, true).at(0) // 2 ** 27 + 1
 */
export function arrivalOrder(count: number, newestFirst: boolean): Order {
  return { length: count, at: (p) => ARRIVAL_BASE + (newestFirst ? count - 1 - p : p) };
}

export function permutationOrder(perm: Uint32Array): Order {
  return { length: perm.length, at: (p) => perm[p] as number };
}

/**
 * Long work in slices: a generator that yields after each slice of about SLICE items and returns
 * its result. Whoever runs it decides what happens between slices: the list route lets the
 * event loop turn (other requests are answered meanwhile), `finish` runs straight through.
 */
export type Work<T> = Generator<Tick | undefined, T, void>;

/**
 * What long work may say of itself between slices: the step under way and how far it is, in
 * the step's own units. Whoever runs the work keeps the latest (the inspector shows it).
 * @example { step: "Reading each call's from", done: 4_194_304, total: 10_000_000 }
 */
export interface Tick {
  readonly step: string;
  readonly done: number;
  readonly total: number;
}

/** Items handled between two yields of a Work. */
export const SLICE = 16_384;

/** Runs work to its end at once. @example finish(sortPermutation(column, 'asc')) // Uint32Array */
export function finish<T>(work: Work<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
  }
}

/**
 * The sort keys of n seeded records: each record's key is the sequence of its words, most
 * significant first (`words[0][i]`, `words[1][i]`, …), compared as unsigned integers.
 */
export interface Column {
  readonly n: number;
  readonly words: readonly (Uint32Array | Uint16Array)[];
  /** How many low bits of each word keys use, when known to be fewer than 32: the digits above are skipped. */
  readonly bits?: number;
  /** How many records hold each key of a 16-bit column, when whoever drew the keys counted them (see `keyGroups`). */
  readonly groups?: Uint32Array;
  /** The order, made where the keys were drawn (worker threads); null when it cannot be, and the keys are sorted here. */
  readonly order?: (direction: 'asc' | 'desc') => Work<Uint32Array | null>;
}

const DIGIT_BITS = 16;
const DIGITS = 1 << DIGIT_BITS;

/**
 * Indexes 0..n-1 ordered by the column's keys (ascending, or descending), ties by index
 * ascending, which is `date_created` descending: production's tie-breaker for every attribute
 * but DateCreated. Creation times are distinct, so the order is total and the same on every run.
 *
 * An LSD radix sort: stable counting passes over 16-bit digits, least significant first, so no
 * comparison and no string is ever made; a pass whose digit is the same for every record is
 * skipped. Descending order counts the complement of each digit, which keeps ties in index order.
 */
export function* sortPermutation(column: Column, direction: 'asc' | 'desc'): Work<Uint32Array> {
  const placed = column.order === undefined ? null : yield* column.order(direction);
  if (placed !== null) return placed;
  const { n, words } = column;
  const shifts = [0, DIGIT_BITS].filter((shift) => shift < (column.bits ?? 32));
  // Progress in records handled: two passes (count, place) a digit.
  const total = n * words.length * shifts.length * 2;
  let base = 0;
  // Before the first placing pass the order is the index order itself: no array holds it.
  let perm: Uint32Array | null = null;
  // The other array of a pass, made only when a second pass places (most sorts have one).
  let spare: Uint32Array | null = null;
  const flip = direction === 'desc' ? DIGITS - 1 : 0;
  const counts = new Uint32Array(DIGITS + 1);
  for (let w = words.length - 1; w >= 0; w--) {
    const word = words[w] as Uint32Array | Uint16Array;
    for (const shift of shifts) {
      counts.fill(0);
      for (let k = 0; k < n; k++) {
        counts[((((word[k] as number) >>> shift) & (DIGITS - 1)) ^ flip) + 1]!++;
        if (k % SLICE === 0) yield { step: 'Sorting', done: base + k, total };
      }
      base += 2 * n;
      // Every record in one bucket: this digit orders nothing.
      if (counts.includes(n)) continue;
      for (let d = 1; d <= DIGITS; d++) counts[d]! += counts[d - 1]!;
      const placed: Uint32Array = spare ?? new Uint32Array(n);
      for (let k = 0; k < n; k++) {
        const i = perm === null ? k : (perm[k] as number);
        placed[counts[(((word[i] as number) >>> shift) & (DIGITS - 1)) ^ flip]!++] = i;
        if (k % SLICE === 0) yield { step: 'Sorting', done: base - n + k, total };
      }
      spare = perm;
      perm = placed;
    }
  }
  if (perm === null) {
    // No digit ordered anything: every key is equal, and ties keep the index order.
    perm = new Uint32Array(n);
    for (let i = 0; i < n; i++) perm[i] = i;
  }
  return perm;
}

/**
 * Strings as a column, by rank among the distinct values under production's collation: the exact way for
 * long or unbounded values. It keeps every string at once, so it serves small lists only.
 * @example rankStrings(['b', 'a', 'b']) // { n: 3, words: [Uint32Array [1, 0, 1]] }
 */
export function rankStrings(values: readonly string[]): Column {
  // Under production's collation (see collationKey): the keys' default sort compares UTF-16 code
  // units (never the locale), with no comparator calls; texts equal to the database tie.
  const folded = values.map(collationKey);
  const distinct = Array.from(new Set(folded)).sort();
  const rankOf = new Map<string, number>();
  // A loop, not new Map(distinct.map(…)): a million [value, rank] pairs would be garbage at once.
  for (let r = 0; r < distinct.length; r++) rankOf.set(distinct[r] as string, r);
  const keys = new Uint32Array(values.length);
  for (let i = 0; i < values.length; i++) keys[i] = rankOf.get(folded[i] as string) as number;
  return { n: values.length, words: [keys] };
}

let lastTableId = 0;

/** A number no other table of this process has: the render cache keys items by it. */
export function newTableId(): number {
  return ++lastTableId;
}

/**
 * How many records hold each key of a one-word column of keys below 2^16: what turns an order
 * by the column into the order in the other direction (see `reverseGroups`) once the column
 * itself is gone. 256 KB, however many records.
 * @example keyGroups({ n: 3, words: [Uint32Array.of(2, 0, 2)], bits: 16 })[2] // 2
 */
export function* keyGroups(column: Column): Work<Uint32Array> {
  if (column.groups !== undefined) return column.groups;
  const counts = new Uint32Array(DIGITS);
  const keys = column.words[0] as Uint32Array | Uint16Array;
  for (let i = 0; i < column.n; i++) {
    counts[(keys[i] as number) & (DIGITS - 1)]!++;
    if (i % SLICE === 0) yield { step: 'Counting keys', done: i, total: column.n };
  }
  return counts;
}

/** Whether a column's keys fit one 16-bit digit: its orders can be turned by `reverseGroups`. */
export function groupable(column: Column): boolean {
  return column.words.length === 1 && (column.bits ?? 32) <= DIGIT_BITS;
}

/**
 * The order in the other direction from one order of a 16-bit column and its key groups (the
 * groups of `sorted` in its own direction, `counts` by key): the runs of equal keys in reverse,
 * each run kept as it is, since ties go by index ascending in both directions. One copy, no
 * key read.
 * @example finish(reverseGroups(Uint32Array.of(1, 0, 2), counts, true)) // Uint32Array [0, 2, 1], for keys [2, 0, 2]
 */
export function* reverseGroups(sorted: Uint32Array, counts: Uint32Array, sortedAsc: boolean): Work<Uint32Array> {
  const out = new Uint32Array(sorted.length);
  // Runs in `sorted`'s order: keys ascending for an ascending order, else descending.
  let from = sorted.length;
  let to = 0;
  for (let g = 0; g < DIGITS; g++) {
    const count = counts[sortedAsc ? DIGITS - 1 - g : g] as number;
    if (count === 0) continue;
    // This key's run is the last `count` not yet taken from the end of `sorted`, placed in order.
    from -= count;
    // A loop, not out.set: copying out of shared memory (an order placed on threads) takes
    // V8's slow path, five times slower than this.
    for (let k = 0; k < count; k++) out[to + k] = sorted[from + k] as number;
    to += count;
    if (g % 256 === 0) yield { step: 'Sorting', done: to, total: sorted.length };
  }
  return out;
}
