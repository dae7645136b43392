import { STATUS_TABLE, talkOf, talkOfDraw } from '../../src/generators/call-draws';
import { StepTable } from '../../src/random/step-table';
import { Stream } from '../../src/random/stream';

/** Draws as streams make them (32 bits over 2^32), and as Alea makes them (finer). */
function draws(count: number): number[] {
  const sfc = new Stream(11, 22, 33);
  const alea = Stream.of(['step-table']);
  return Array.from({ length: count }, (_, k) => (k % 2 === 0 ? sfc.float() : alea.float()));
}

/** Every bucket's edges, and the draws either side of them (the largest 32-bit draw below, the next one up). */
function edges(buckets: number): number[] {
  const out: number[] = [];
  for (let j = 0; j <= buckets; j++) {
    const edge = j / buckets;
    out.push(edge, Math.max(0, edge - 2 ** -32), Math.min(1 - 2 ** -32, edge + 2 ** -32));
  }
  return out.filter((x) => x < 1);
}

describe('StepTable', () => {
  const cases: [string, (x: number) => number, number][] = [
    ['a threshold inside a bucket', (x) => (x < 0.300001 ? 0 : 1), 16],
    ['many steps a bucket', (x) => Math.floor(x * 1000), 64],
    ['a steep tail', (x) => Math.min(20000, Math.round(10 * Math.sqrt(x / (1 - x)))), 256],
  ];
  test.each(cases)('answers f itself, table or not: %s', (_name, f, buckets) => {
    const table = new StepTable(f, buckets);
    const wrong = [...edges(buckets), ...draws(20_000)].filter((x) => {
      const v = table.at(x);
      return v !== -1 && v !== f(x);
    });
    expect(wrong).toEqual([]);
  });

  test('a bucket that holds a step is computed, one that does not is not', () => {
    const table = new StepTable((x) => (x < 0.3 ? 0 : 1), 10);
    expect(table.at(0.15)).toBe(0);
    expect(table.at(0.25)).toBe(-1);
    expect(table.at(0.95)).toBe(1);
  });
});

describe('talk time by table', () => {
  const completed = STATUS_TABLE.indexOf('completed');
  test('is the formula for every bucket edge and two million draws', () => {
    for (const u of [...edges(16384), ...draws(2_000_000)]) {
      if (talkOf(completed, false, u) !== talkOfDraw(u))
        expect([u, talkOf(completed, false, u)]).toEqual([u, talkOfDraw(u)]);
    }
    // The long tail is there: the table has no answer for it, the formula does.
    expect(talkOf(completed, false, 1 - 2 ** -32)).toBe(talkOfDraw(1 - 2 ** -32));
    expect(talkOf(completed, false, 0.5)).toBe(75);
  });
});
