import { emptyTally, localTally, stepTally, type TallyOp } from '../../src/faults/tally';

const op = (step: TallyOp['step'], extra: Partial<TallyOp> = {}): TallyOp => ({
  key: 'k',
  step,
  times: null,
  rate: null,
  nowMs: 0,
  ...extra,
});

describe("stepTally: one rule for every place that keeps a fault's counters", () => {
  test.each([
    // [steps, verdicts, final matched, final applied]
    [[op('take'), op('take')], ['applied', 'applied'], 2, 2],
    [[op('take', { times: 1 }), op('take', { times: 1 })], ['applied', 'spent'], 1, 1],
    [
      [op('draw', { times: 1 }), op('apply', { times: 1 }), op('draw', { times: 1 })],
      ['drawn', 'applied', 'spent'],
      1,
      1,
    ],
    // A draw that lost its probability applies nothing: the next draw takes the next index.
    [[op('draw'), op('draw'), op('apply')], ['drawn', 'drawn', 'applied'], 2, 1],
  ] as const)('%#: %j', (steps, verdicts, matched, applied) => {
    const s = emptyTally();
    expect(steps.map((o) => stepTally(s, o).verdict)).toEqual(verdicts);
    expect([s.matched, s.applied]).toEqual([matched, applied]);
  });

  test('draw indexes count from 0 in order; apply takes none', () => {
    const s = emptyTally();
    expect([stepTally(s, op('draw')).draw, stepTally(s, op('take')).draw, stepTally(s, op('apply')).draw]).toEqual([
      0, 1, -1,
    ]);
  });

  test('a rate window lets `limit` through, then limits until it ends; Retry-After counts what is left of it', () => {
    const s = emptyTally();
    const rate = { limit: 2, windowMs: 10_000 };
    const at = (nowMs: number) => stepTally(s, op('take', { rate, nowMs }));
    expect([at(1000), at(2000)].map((r) => r.verdict)).toEqual(['under', 'under']);
    expect(at(3000)).toEqual({ verdict: 'limited', draw: 2, retryS: 8 });
    expect(at(10_999)).toEqual({ verdict: 'limited', draw: 3, retryS: 1 });
    // The window began at 1000: at 11000 a new one begins.
    expect(at(11_000).verdict).toBe('under');
    expect(s.applied).toBe(2);
  });

  test('a local tally keeps each key apart, reads zero for one never counted, and forgets a dropped one', () => {
    const t = localTally();
    t.step(op('take', { key: 'a' }));
    t.step(op('take', { key: 'a' }));
    t.step(op('take', { key: 'b' }));
    expect(t.read(['a', 'b', 'c'])).toEqual([
      { matched: 2, applied: 2, windowStartMs: null, windowCount: 0 },
      { matched: 1, applied: 1, windowStartMs: null, windowCount: 0 },
      emptyTally(),
    ]);
    t.drop('a');
    expect(t.read(['a'])).toEqual([emptyTally()]);
  });
});
