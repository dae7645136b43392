/**
 * A step function of a uniform draw, answered from a table: `f` must be non-decreasing on [0, 1]
 * with integer values in 0..32767. The draws are cut into `buckets` equal buckets; where `f` has
 * the same value at both ends of a bucket it has that value everywhere inside (it never goes
 * down), so the table holds it; a bucket that holds a step is marked, and the caller computes a
 * draw in it. What the table holds is `f(x)` exactly, for every double.
 *
 * Why: a sort of fifty million calls by Duration or Price reads a talk time a call, and its
 * square root and division cost as much as the draws it reads.
 * @example new StepTable((x) => (x < 0.25 ? 0 : 1), 16).at(0.7) // 1 (and .at(0.26) // -1: that bucket holds the step)
 */
export class StepTable {
  /** The value of each bucket, or -1 where it holds a step. */
  private readonly table: Int16Array;

  constructor(
    f: (x: number) => number,
    private readonly buckets: number,
  ) {
    this.table = new Int16Array(buckets);
    let low = f(0);
    for (let j = 0; j < buckets; j++) {
      const high = f((j + 1) / buckets);
      this.table[j] = low === high ? low : -1;
      low = high;
    }
  }

  /**
   * `f(x)` for a draw x in [0, 1) in a bucket without a step, else -1: the caller computes it
   * then (a direct call, which the compiler inlines; a call through `f` here would reach every
   * table's function from one site).
   * @example talk.at(0.5) // 75
   */
  at(x: number): number {
    const v = this.table[(x * this.buckets) | 0];
    return v === undefined ? -1 : v;
  }
}
