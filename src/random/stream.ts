import seedrandom from 'seedrandom';

/**
 * A deterministic random stream. Every random value in the emulator's data comes from one of
 * these, keyed by a path such as `[seed, accountSid, 'call', 400]`, so a record is a pure function
 * of its key and never depends on what was drawn before it (call 400 needs no calls 0..399).
 *
 * Alea (from seedrandom) is used because it seeds from a string in a few hundred nanoseconds and
 * uses only exactly-rounded float arithmetic, so it gives the same numbers on every machine.
 */
export class Stream {
  private readonly prng: seedrandom.PRNG;

  /** @example new Stream(['callrec', 'AC0f…', 'call', 0]).float() // 0.4821… */
  constructor(key: ReadonlyArray<string | number>) {
    // U+001F (unit separator) cannot occur in a seed passed on a command line by accident,
    // so ['a b', 'c'] and ['a', 'b c'] never collide.
    this.prng = seedrandom.alea(key.join('\u001f'));
  }

  /** A float in [0, 1). @example stream.float() // 0.7309… */
  float(): number {
    return this.prng();
  }

  /** An integer in [min, max], both inclusive. @example stream.int(1, 3) // 2 */
  int(min: number, max: number): number {
    return min + Math.floor(this.prng() * (max - min + 1));
  }

  /** True with probability p. @example stream.chance(0.25) // false */
  chance(p: number): boolean {
    return this.prng() < p;
  }

  /** One element, uniformly. @example stream.pick(['a', 'b']) // 'b' */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.prng() * items.length)] as T;
  }

  /**
   * One value from a table of `[value, weight]` pairs; weights need not sum to 1.
   * @example stream.weighted([['completed', 80], ['busy', 20]]) // 'completed'
   */
  weighted<T>(table: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of table) total += w;
    let x = this.prng() * total;
    for (const [value, w] of table) {
      if (x < w) return value;
      x -= w;
    }
    return (table[table.length - 1] as readonly [T, number])[0];
  }

  /** `n` lower-case hex digits. @example stream.hex(8) // '0f3a9c2e' */
  hex(n: number): string {
    let out = '';
    while (out.length < n) {
      out += (this.prng.int32() >>> 0).toString(16).padStart(8, '0');
    }
    return out.slice(0, n);
  }

  /** `n` decimal digits, the first one not 0. @example stream.digits(4) // '5120' */
  digits(n: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < n; i++) out += String(this.int(0, 9));
    return out;
  }

  /** The raw generator, for faker's Randomizer. */
  get next(): () => number {
    return this.prng;
  }
}
