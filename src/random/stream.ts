import seedrandom from 'seedrandom';

const TWO_POW_32 = 4294967296;
/** Two hex digits per byte value: `toString(16)` is slow enough to show in a profile. */
const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Eight lower-case hex digits of a 32-bit value. @example hex8(255) // '000000ff' */
export function hex8(x: number): string {
  return HEX_BYTE[(x >>> 24) & 255]! + HEX_BYTE[(x >>> 16) & 255]! + HEX_BYTE[(x >>> 8) & 255]! + HEX_BYTE[x & 255]!;
}

/** murmur3's finaliser: a bijection on 32-bit integers that mixes every bit into every other. @example mix32(1) // 1364076727 */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Two independent 32-bit hashes of a string (FNV-1a style, two offset bases, mixed).
 * @example hash64('callrec') // [2745432119, 1028373981]
 */
export function hash64(text: string): [number, number] {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return [mix32(a ^ (b >>> 15)), mix32(b ^ (a >>> 13))];
}

/**
 * A deterministic random stream: seedrandom's Alea. Every random value in the emulator's data
 * comes from one of these, so a record never depends on what was drawn before it elsewhere.
 * Alea uses only exactly-rounded float arithmetic, so it gives the same numbers on every machine.
 */
/** What a stream draws from: seedrandom's generators have this shape (named here, so that the published types need no @types/seedrandom). */
export interface Prng {
  (): number;
  int32(): number;
}

export class Stream {
  private readonly prng: Prng;

  constructor(prng: Prng) {
    this.prng = prng;
  }

  /**
   * A stream seeded from a key path, for one-off values (an account's profile, the world's
   * instance ids). Costs a few microseconds; per-record streams come from a `StreamFamily`.
   * @example Stream.of(['callrec', 'instances']).float() // 0.4821…
   */
  static of(key: ReadonlyArray<string | number>): Stream {
    // U+001F (unit separator) does not occur in seeds by accident, so ['a b', 'c'] and
    // ['a', 'b c'] never collide.
    return new Stream(seedrandom.alea(key.join('\u001f')));
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
    return this.weightedRest(table)[0];
  }

  /**
   * `weighted`, and where in its bucket the draw fell: a second uniform value in [0, 1) from the
   * same draw, so a value that depends on the pick costs no draw and shifts nothing after it.
   * @example stream.weightedRest([['completed', 80], ['busy', 20]]) // ['completed', 0.41…]
   */
  weightedRest<T>(table: ReadonlyArray<readonly [T, number]>): [T, number] {
    let total = 0;
    for (const [, w] of table) total += w;
    let x = this.prng() * total;
    for (const [value, w] of table) {
      if (x < w) return [value, x / w];
      x -= w;
    }
    // Reached only by rounding at the very top: the last bucket's top.
    return [(table[table.length - 1] as readonly [T, number])[0], 0.999999];
  }

  /** `n` lower-case hex digits. @example stream.hex(8) // '0f3a9c2e' */
  hex(n: number): string {
    let out = '';
    while (out.length < n) {
      out += hex8(this.prng.int32());
    }
    return out.length === n ? out : out.slice(0, n);
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

/**
 * The streams of one kind of record of one account: `family.at(i)` is record i's stream.
 *
 * The key path (seed, account, kind) is hashed once; each index's Alea state is then set straight
 * from a mix of that hash and the index, through seedrandom's `state` option. That skips Alea's
 * string seeding (about 3.5 µs) for about 0.35 µs, which is what lets a million records be read
 * for a sort in a second or so. Index → state is injective, so no two records share a stream.
 */
export class StreamFamily {
  private readonly h1: number;
  private readonly h2: number;

  /** @example new StreamFamily(['callrec', 'AC0f…', 'call']).at(400).float() // 0.1937… */
  constructor(key: ReadonlyArray<string | number>) {
    [this.h1, this.h2] = hash64(key.join('\u001f'));
  }

  at(index: number): Stream {
    const a = mix32(this.h1 ^ Math.imul(index, 0x9e3779b1));
    const b = mix32((this.h2 + a) >>> 0);
    const c = mix32(a ^ b ^ 0x5bd1e995);
    return new Stream(
      seedrandom.alea('', { state: { c: 1, s0: a / TWO_POW_32, s1: b / TWO_POW_32, s2: c / TWO_POW_32 } }),
    );
  }
}
