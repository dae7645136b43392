import fc from 'fast-check';
import { runsOnly, wildcard } from '../../src/input/wildcard';

/** The rule, the slow and obvious way: dynamic programming over code points. */
function reference(pattern: string, text: string): boolean {
  const p = [...pattern];
  const t = [...text];
  let row = [true, ...t.map(() => false)];
  for (const ch of p) {
    const next = [ch === '%' && row[0] === true];
    for (let j = 1; j <= t.length; j++) {
      next[j] =
        ch === '%' ? next[j - 1] === true || row[j] === true : row[j - 1] === true && (ch === '_' || ch === t[j - 1]);
    }
    row = next as boolean[];
  }
  return row[t.length] === true;
}

describe('wildcard (LIKE % and _, fault * globs)', () => {
  test.each([
    ['%a_c%', 'xxabcyy', true],
    ['%a_c%', 'xxacyy', false],
    ['a%', 'a', true],
    ['%%%', '', true],
    ['_', '😀', true],
    ['__', '😀', false],
    ['%😀_', 'x😀y', true],
  ])('%s ~ %s → %s', (pattern, text, expected) => {
    expect(wildcard(pattern, '%', '_')(text)).toBe(expected);
  });

  test('agrees with the obvious rule on random patterns and texts', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab%_]{0,8}$/), fc.stringMatching(/^[ab]{0,12}$/), (pattern, text) => {
        expect(wildcard(pattern, '%', '_')(text)).toBe(reference(pattern, text));
      }),
      { seed: 3, numRuns: 2000 },
    );
  });

  test('fourteen runs and a literal against a long text answer at once (a RegExp took 39 s)', () => {
    // No timing here: a backtracking matcher would run past the test timeout and fail it.
    const hostile = wildcard(`${'%'.repeat(14)}x`, '%', '_');
    expect(hostile('a'.repeat(5000))).toBe(false);
    const stars = wildcard('/*a*a*a*a*a*a*b', '*');
    expect(stars(`/${'a'.repeat(20_000)}`)).toBe(false);
  });
});

describe('runsOnly: * patterns matched piece by piece', () => {
  // The same answers as the general matcher, on random patterns and texts of a small alphabet.
  test('agrees with wildcard(pattern, "*") on random patterns and texts', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[ab*/]{0,12}$/), fc.stringMatching(/^[ab/]{0,20}$/), (pattern, text) => {
        expect(runsOnly(pattern, '*')(text)).toBe(wildcard(pattern, '*')(text));
      }),
      { seed: 7, numRuns: 3000 },
    );
  });

  test.each([
    ['/call/*.json', '/call/a/Calls.json', true],
    ['/*b', '/aaaa', false],
    ['/*aa*aa', '/aaa', false],
    ['/*aa*aa', '/aaaa', true],
    ['*', '', true],
    ['abc', 'abc', true],
    ['abc', 'abcd', false],
  ])('%s on %s → %s', (pattern, text, expected) => {
    expect(runsOnly(pattern, '*')(text)).toBe(expected);
  });
});
