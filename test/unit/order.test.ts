import fc from 'fast-check';
import { countingSortPermutation, rankNumbers, rankStrings } from '../../src/store/order';

/** The rule, written the slow and obvious way: by key, ties by index ascending. */
function reference(keys: number[], direction: 'asc' | 'desc'): number[] {
  const sign = direction === 'asc' ? 1 : -1;
  return keys.map((_, i) => i).sort((a, b) => sign * (keys[a]! - keys[b]!) || a - b);
}

describe('countingSortPermutation', () => {
  test.each([
    [[3, 1, 2, 1, 0], 'asc', [4, 1, 3, 2, 0]],
    [[3, 1, 2, 1, 0], 'desc', [0, 2, 1, 3, 4]],
    [[0, 0, 0], 'desc', [0, 1, 2]],
    [[], 'asc', []],
  ] as const)('%j %s → %j (ties keep index order in both directions)', (keys, dir, expected) => {
    const max = Math.max(0, ...keys);
    expect(Array.from(countingSortPermutation(Uint32Array.from(keys), max, dir))).toEqual(expected);
  });

  test('agrees with a comparator sort on random columns', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 40 }), { maxLength: 300 }),
        fc.constantFrom('asc' as const, 'desc' as const),
        (keys, dir) => {
          const perm = countingSortPermutation(Uint32Array.from(keys), Math.max(0, ...keys), dir);
          expect(Array.from(perm)).toEqual(reference(keys, dir));
        },
      ),
      { seed: 7, numRuns: 200 },
    );
  });
});

describe('ranks', () => {
  test('strings rank by UTF-16 code unit, not locale', () => {
    const values = ['b', 'B', '+1', '10', '9', 'a', 'B', 'Émile', 'zed'];
    const { keys, maxKey } = rankStrings(values);
    expect(maxKey).toBe(7);
    const byRank = values
      .map((v, i) => [keys[i]!, v] as const)
      .sort((x, y) => x[0] - y[0])
      .map(([, v]) => v);
    expect(byRank).toEqual(['+1', '10', '9', 'B', 'B', 'a', 'b', 'zed', 'Émile']);
  });

  test('numbers rank numerically', () => {
    const { keys, maxKey } = rankNumbers([10, 9.5, 100, 9.5]);
    expect(Array.from(keys)).toEqual([1, 0, 2, 0]);
    expect(maxKey).toBe(2);
  });
});
