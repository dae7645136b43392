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
    const h = mixed(hash);
    const step = (h >>> 16) | 1;
    for (let row = 0, at = h; row < ROWS; row++, at += step) {
      const k = row * this.width + (at & this.mask);
      if ((this.counts[k] as number) < MAX) this.counts[k]!++;
    }
    if (++this.added >= this.sample) this.halve();
  }

  /** The sights of `hash` counted since the last halving (at most 15), or a little more. */
  estimate(hash: number): number {
    const h = mixed(hash);
    const step = (h >>> 16) | 1;
    let least = MAX;
    for (let row = 0, at = h; row < ROWS; row++, at += step) {
      least = Math.min(least, this.counts[row * this.width + (at & this.mask)] as number);
    }
    return least;
  }

  private halve(): void {
    for (let k = 0; k < this.counts.length; k++) this.counts[k]! >>>= 1;
    this.added = 0;
  }
}

const ROWS = 4;
const MAX = 15;

/**
 * The hash spread over all 32 bits (murmur3's finaliser): row r reads counter (h + r·step), step
 * from its high half, odd (double hashing: one mix for four rows).
 */
function mixed(hash: number): number {
  let h = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
