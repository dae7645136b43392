/**
 * How often each key was asked for lately, estimated in fixed memory: a count-min sketch of four
 * rows of small counters (at most 15), all halved once as many sights have been counted as ten
 * times a row's width, so that what was asked for long ago fades (TinyLFU's reset). An estimate
 * is never below the true count since the last halving, and rarely above it.
 * @example const s = new FrequencySketch(8); s.add(7); s.add(7); s.estimate(7) // 2
 */
export class FrequencySketch {
  private readonly counts: Uint8Array;
  private readonly width: number;
  private readonly mask: number;
  private readonly sample: number;
  private added = 0;

  /** Rows of 2^log2Width counters. */
  constructor(log2Width: number) {
    this.width = 2 ** log2Width;
    this.mask = this.width - 1;
    this.counts = new Uint8Array(ROWS * this.width);
    this.sample = 10 * this.width;
  }

  /** Counts one sight of `hash` (32 bits). */
  add(hash: number): void {
    for (let row = 0; row < ROWS; row++) {
      const at = this.slot(hash, row);
      if ((this.counts[at] as number) < MAX) this.counts[at]!++;
    }
    if (++this.added >= this.sample) this.halve();
  }

  /** The sights of `hash` counted since the last halving (at most 15), or a little more. */
  estimate(hash: number): number {
    let least = MAX;
    for (let row = 0; row < ROWS; row++) least = Math.min(least, this.counts[this.slot(hash, row)] as number);
    return least;
  }

  /** A row's counter for `hash`: the hash mixed with the row's odd constant (murmur3's finaliser). */
  private slot(hash: number, row: number): number {
    let h = Math.imul(hash ^ (hash >>> 16), SEEDS[row] as number);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return row * this.width + ((h ^ (h >>> 16)) & this.mask);
  }

  private halve(): void {
    for (let k = 0; k < this.counts.length; k++) this.counts[k]! >>>= 1;
    this.added = 0;
  }
}

const ROWS = 4;
const MAX = 15;
const SEEDS = [0x85ebca6b, 0x27d4eb2f, 0x165667b1, 0x9e3779b1];
