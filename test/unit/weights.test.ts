import { Stream } from '../../src/random/stream';
import { Weights } from '../../src/random/weights';

/** The choice by definition: the first bucket whose cumulative top lies above x · total. */
function reference(table: readonly (readonly [string, number])[], x: number): number {
  const total = table.reduce((sum, [, w]) => sum + w, 0);
  let top = 0;
  for (const [k, [, w]] of table.entries()) {
    top += w;
    if (x * total < top) return k;
  }
  return table.length - 1;
}

/** Every 1/1024 edge and the 32-bit draws either side of it, then draws as streams make them. */
function draws(count: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < 1024; j++) out.push(j / 1024, Math.max(0, (j - 2 ** -22) / 1024), (j + 2 ** -22) / 1024);
  const sfc = new Stream(5, 6, 7);
  const alea = Stream.of(['weights']);
  for (let k = 0; k < count; k++) out.push(k % 2 === 0 ? sfc.float() : alea.float());
  return out.filter((x) => x >= 0 && x < 1);
}

describe('Weights.index (answered from a table of its steps)', () => {
  const tables: [string, [string, number][]][] = [
    [
      'a mostly-one-bucket mix (as the seeded calls’ statuses were when written)',
      [
        ['completed', 80],
        ['no-answer', 8],
        ['busy', 5],
        ['failed', 3],
        ['not-found', 1],
        ['canceled', 3],
      ],
    ],
    [
      'buckets narrower than a table bucket',
      [
        ['a', 1],
        ['b', 0.0001],
        ['c', 0.0002],
        ['d', 1],
      ],
    ],
    [
      'weights that are not round',
      [
        ['a', 1 / 3],
        ['b', Math.PI],
        ['c', 0.7],
      ],
    ],
    ['one choice', [['only', 2]]],
  ];
  test.each(tables)('is the first bucket whose top lies above the draw: %s', (_name, table) => {
    const weights = new Weights(table);
    const wrong = draws(50_000).filter((x) => weights.index(x) !== reference(table, x));
    expect(wrong).toEqual([]);
  });
});
