import { FrequencySketch } from '../../src/cache/frequency-sketch';
import { mix32 } from '../../src/random/stream';

describe('FrequencySketch', () => {
  test('never estimates below the sights counted, and rarely above', () => {
    const sketch = new FrequencySketch(12);
    const counts = new Map<number, number>();
    for (let k = 0; k < 1000; k++) counts.set(mix32(k + 1), k % 16);
    for (const [hash, n] of counts) for (let i = 0; i < n; i++) sketch.add(hash);
    let exact = 0;
    for (const [hash, n] of counts) {
      expect(sketch.estimate(hash)).toBeGreaterThanOrEqual(n);
      if (sketch.estimate(hash) === n) exact++;
    }
    expect(exact).toBeGreaterThan(950);
  });

  test('counts stop at 15, and all halve once ten times a row of sights are counted', () => {
    const sketch = new FrequencySketch(8);
    for (let i = 0; i < 20; i++) sketch.add(7);
    expect(sketch.estimate(7)).toBe(15);
    for (let i = 20; i < 10 * 256 - 1; i++) sketch.add(99);
    expect([sketch.estimate(7), sketch.estimate(99)]).toEqual([15, 15]);
    sketch.add(99);
    expect([sketch.estimate(7), sketch.estimate(99)]).toEqual([7, 7]);
  });
});
