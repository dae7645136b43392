import fc from 'fast-check';
import {
  type Column,
  finish,
  groupable,
  keyGroups,
  rankStrings,
  reverseGroups,
  sortPermutation,
} from '../../src/store/order';
import { sortSliced } from '../../src/store/overlay';

/** The rule, written the slow and obvious way: by key (words in turn), ties by index ascending. */
function reference(keys: number[][], direction: 'asc' | 'desc'): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  const cmp = (a: number[], b: number[]) => {
    for (let w = 0; w < a.length; w++) if (a[w] !== b[w]) return (a[w]! < b[w]! ? -1 : 1) * sign;
    return 0;
  };
  return keys.map((_, i) => i).sort((a, b) => cmp(keys[a]!, keys[b]!) || a - b);
}

const columnOf = (keys: number[][]): Column => ({
  n: keys.length,
  words: Array.from({ length: keys[0]?.length ?? 1 }, (_, w) => Uint32Array.from(keys.map((k) => k[w] ?? 0))),
});

describe('sortPermutation (LSD radix over 16-bit digits)', () => {
  test.each([
    [[3, 1, 2, 1, 0], 'asc', [4, 1, 3, 2, 0]],
    [[3, 1, 2, 1, 0], 'desc', [0, 2, 1, 3, 4]],
    [[0, 0, 0], 'desc', [0, 1, 2]],
    [[70000, 65535, 65536, 1], 'asc', [3, 1, 2, 0]],
    [[], 'asc', []],
  ] as const)('%j %s → %j (ties keep index order in both directions)', (keys, dir, expected) => {
    const perm = finish(sortPermutation(columnOf(keys.map((k) => [k])), dir));
    expect(Array.from(perm)).toEqual(expected);
  });

  test('agrees with a comparator sort on random multi-word keys, full 32-bit words included', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }).chain((words) =>
          fc.array(
            fc.array(fc.oneof(fc.nat({ max: 5 }), fc.nat({ max: 0xffffffff })), {
              minLength: words,
              maxLength: words,
            }),
            { maxLength: 200 },
          ),
        ),
        fc.constantFrom('asc' as const, 'desc' as const),
        (keys, dir) => {
          expect(Array.from(finish(sortPermutation(columnOf(keys), dir)))).toEqual(reference(keys, dir));
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });

  test('yields between slices, so a big sort can be run a slice at a time', () => {
    const n = 100_000;
    const work = sortPermutation({ n, words: [Uint32Array.from({ length: n }, (_, i) => (i * 7919) % 1000)] }, 'asc');
    let slices = 0;
    let step = work.next();
    while (step.done !== true) {
      slices++;
      step = work.next();
    }
    expect(slices).toBeGreaterThan(10);
    expect(step.value.length).toBe(n);
  });
});

describe('sortPermutation: keys of few bits', () => {
  test('a column that says its keys fit 16 bits sorts as the full sort does, ties by index', () => {
    const keys = Uint32Array.from({ length: 5000 }, (_, i) => (i * 7919) % 613);
    for (const direction of ['asc', 'desc'] as const) {
      const full = finish(sortPermutation({ n: keys.length, words: [keys] }, direction));
      const short = finish(sortPermutation({ n: keys.length, words: [keys], bits: 16 }, direction));
      expect(short).toEqual(full);
      const sign = direction === 'asc' ? 1 : -1;
      const expected = Array.from(keys, (_, i) => i).sort((x, y) => sign * (keys[x]! - keys[y]!) || x - y);
      expect(Array.from(short)).toEqual(expected);
    }
  });
});

describe('rankStrings (the exact fallback)', () => {
  test("ranks under production's collation (case and accents aside, by code unit), not locale", () => {
    const values = ['b', 'B', '+1', '10', '9', 'a', 'B', 'Émile', 'zed'];
    const { words } = rankStrings(values);
    const byRank = values
      .map((v, i) => [words[0]![i]!, v] as const)
      .sort((x, y) => x[0] - y[0])
      .map(([, v]) => v);
    expect(byRank).toEqual(['+1', '10', '9', 'a', 'b', 'B', 'B', 'Émile', 'zed']);
    // b and B are one text to the database: one rank.
    expect(words[0]![0]).toBe(words[0]![1]);
  });
});

describe('sortSliced', () => {
  test('sorts as a stable sort does, yielding as it goes', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 300 }), (keys) => {
        const ids = keys.map((_, i) => i);
        const byKey = (a: number, b: number) => (keys[a] as number) - (keys[b] as number);
        expect(finish(sortSliced(ids, byKey))).toEqual([...ids].sort(byKey));
      }),
      { seed: 3, numRuns: 300 },
    );
    const big = Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 20_000);
    const work = sortSliced(big, (a, b) => a - b);
    let yields = 0;
    let step = work.next();
    for (; step.done !== true; step = work.next()) yields++;
    expect(step.value).toEqual(Array.from({ length: 20_000 }, (_, i) => i));
    expect(yields).toBeGreaterThan(10);
  });
});

describe('reverseGroups: the other direction from an order and its key groups', () => {
  test('equals sorting the other way, for 16-bit keys with many ties', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.nat({ max: 3 }), fc.nat({ max: 0xffff })), { maxLength: 300 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        (values, dir) => {
          const column = { n: values.length, words: [Uint32Array.from(values)], bits: 16 };
          expect(groupable(column)).toBe(true);
          const sorted = finish(sortPermutation(column, dir));
          const turned = finish(reverseGroups(sorted, finish(keyGroups(column)), dir === 'asc'));
          const other = dir === 'asc' ? 'desc' : 'asc';
          expect(Array.from(turned)).toEqual(Array.from(finish(sortPermutation(column, other))));
        },
      ),
      { seed: 11, numRuns: 200 },
    );
  });

  test('only one-word columns of 16-bit keys are turned so', () => {
    expect(groupable({ n: 1, words: [Uint32Array.of(1)] })).toBe(false);
    expect(groupable({ n: 1, words: [Uint32Array.of(1), Uint32Array.of(2)], bits: 16 })).toBe(false);
  });
});
