import { StepTable } from './step-table';

/** Buckets of the choice's table: a few of them hold a step between two choices. */
const TABLE_BUCKETS = 1024;

/**
 * A weighted choice as data: the buckets' values and cumulative tops, drawn from one uniform
 * value with no allocation. What `Stream.weightedRest` does, for the hot loops that read every
 * call of a list (a sort of ten million calls draws two of these a call).
 * @example new Weights([['a', 3], ['b', 1]]).index(0.8) // 1 ('b': 0.8 · 4 = 3.2 is past 3)
 */
export class Weights<T> {
  readonly values: readonly T[];
  private readonly tops: Float64Array;
  private readonly widths: Float64Array;
  private readonly total: number;
  /**
   * The choice of each 1/1024 of the draws, where that holds one: a scan of every call reads
   * two choices a call, and the search below mispredicts a branch on about one draw in five.
   */
  private readonly table: StepTable;

  constructor(table: ReadonlyArray<readonly [T, number]>) {
    this.values = table.map(([v]) => v);
    this.widths = Float64Array.from(table, ([, w]) => w);
    this.tops = new Float64Array(table.length);
    let top = 0;
    table.forEach(([, w], k) => {
      top += w;
      this.tops[k] = top;
    });
    this.total = top;
    this.table = new StepTable((x) => this.search(x), TABLE_BUCKETS);
  }

  /** The bucket a uniform `x` in [0, 1) falls in. @example weights.index(0.1) // 0 */
  index(x: number): number {
    const k = this.table.at(x);
    return k >= 0 ? k : this.search(x);
  }

  /** `index` by searching the cumulative tops: what the table holds, and the answer where it holds a step. */
  private search(x: number): number {
    const at = x * this.total;
    const last = this.tops.length - 1;
    for (let k = 0; k < last; k++) if (at < (this.tops[k] as number)) return k;
    return last;
  }

  /**
   * Where in bucket `k` the draw `x` fell, in [0, 1): a second uniform value from the same draw,
   * so a value that depends on the pick costs no draw of its own.
   * @example weights.rest(1, 0.8) // 0.2
   */
  rest(k: number, x: number): number {
    const width = this.widths[k] as number;
    const r = (x * this.total - ((this.tops[k] as number) - width)) / width;
    // Rounding at a bucket's very top could give 1.
    return r < 1 ? r : 0.999999;
  }
}
