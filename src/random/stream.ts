import seedrandom from 'seedrandom';

/** What divides a draw's 32 bits into [0, 1). @example (0x80000000 >>> 0) / TWO_POW_32 // 0.5 */
export const TWO_POW_32 = 4294967296;
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

/** How many sfc32 steps a stream takes before its first draw from a keyed state. @example STREAM_WARM_UP // 4 */
export const STREAM_WARM_UP = 4;

/** seedrandom's Alea, as far as a stream uses it (named here, so the published types need no @types/seedrandom). */
interface Alea {
  (): number;
  int32(): number;
}

/**
 * A deterministic random stream: Chris Doty-Humphrey's sfc32 (a 128-bit state of four 32-bit
 * words, a counter among them), on integer arithmetic only, so it gives the same numbers on
 * every machine. Every random value in the emulator's data comes from one of these, so a record
 * never depends on what was drawn before it elsewhere.
 *
 * Why sfc32 and not one of seedrandom's generators for every stream: a list reads one stream per
 * record, and ordering ten million calls by a field opens ten million of them. seedrandom makes
 * each generator as a set of closures from a seed string (Alea: about 0.35 µs even with its
 * `state` option); this state is four numbers set from the record's index, and a stream can be
 * set again in place (`StreamFamily.seat`) so a scan allocates nothing. Streams seeded from a
 * string (`Stream.of`, for one-off values such as sids and tokens) draw from seedrandom's Alea.
 */
export class Stream {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 1;
  /** Set for a stream seeded from a string: its draws are Alea's, as they have always been. */
  private alea: Alea | null = null;

  /** A stream in the given state (words taken as 32-bit integers), stepped `warmUp` times. */
  constructor(a: number, b: number, c: number, warmUp = STREAM_WARM_UP) {
    this.set(a, b, c, warmUp);
  }

  /** Puts the stream in a new state, as the constructor does: for `StreamFamily.seat`. */
  set(a: number, b: number, c: number, warmUp = STREAM_WARM_UP): void {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = 1;
    for (let k = 0; k < warmUp; k++) this.int32();
  }

  /**
   * A stream seeded from a key path, for one-off values (an account's profile, the world's
   * instance ids). Costs a few microseconds; per-record streams come from a `StreamFamily`.
   * @example Stream.of(['callrec', 'instances']).float() // 0.4821…
   */
  static of(key: ReadonlyArray<string | number>): Stream {
    const stream = new Stream(0, 0, 0, 0);
    // U+001F (unit separator) does not occur in seeds by accident, so ['a b', 'c'] and
    // ['a', 'b c'] never collide. These streams make account sids and tokens, which users
    // keep in their configuration: they stay Alea's, so no release changes them.
    stream.alea = seedrandom.alea(key.join('\u001f'));
    return stream;
  }

  /** The next 32 bits, as a signed integer: one sfc32 step. @example stream.int32() // -1190758371 */
  int32(): number {
    if (this.alea !== null) return this.alea.int32();
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (((this.c << 21) | (this.c >>> 11)) + t) | 0;
    return t;
  }

  /** A float in [0, 1): 32 bits over 2^32, exact. @example stream.float() // 0.7309… */
  float(): number {
    if (this.alea !== null) return this.alea();
    return (this.int32() >>> 0) / TWO_POW_32;
  }

  /** An integer in [min, max], both inclusive. @example stream.int(1, 3) // 2 */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** True with probability p. @example stream.chance(0.25) // false */
  chance(p: number): boolean {
    return this.float() < p;
  }

  /** One element, uniformly. @example stream.pick(['a', 'b']) // 'b' */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)] as T;
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
    let x = this.float() * total;
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
      out += hex8(this.int32());
    }
    return out.length === n ? out : out.slice(0, n);
  }

  /** `n` decimal digits, the first one not 0. @example stream.digits(4) // '5120' */
  digits(n: number): string {
    let out = String(this.int(1, 9));
    for (let i = 1; i < n; i++) out += String(this.int(0, 9));
    return out;
  }
}

/**
 * The streams of one kind of record of one account: `family.at(i)` is record i's stream.
 *
 * The key path (seed, account, kind) is hashed once; each index's sfc32 state is then set
 * straight from a mix of that hash and the index: no string is digested per record, which is what
 * lets ten million records be read for a sort in well under a second. The first word is a
 * bijection of the index (for a key), so no two records of a family share a stream.
 */
export class StreamFamily {
  private readonly h1: number;
  private readonly h2: number;

  /** @example new StreamFamily(['callrec', 'AC0f…', 'call']).at(400).float() // 0.1937… */
  constructor(key: ReadonlyArray<string | number>) {
    [this.h1, this.h2] = hash64(key.join('\u001f'));
  }

  /** The two numbers every stream of the family is set from: all another thread needs to draw the same. @example family.hashes // [2745432119, 1028373981] */
  get hashes(): [number, number] {
    return [this.h1, this.h2];
  }

  /** The family whose `hashes` these are. @example StreamFamily.fromHashes(family.hashes).at(3) // family.at(3)'s stream */
  static fromHashes([h1, h2]: readonly [number, number]): StreamFamily {
    const family = new StreamFamily([]);
    Object.assign(family, { h1, h2 });
    return family;
  }

  at(index: number): Stream {
    const a = mix32(this.h1 ^ Math.imul(index, 0x9e3779b1));
    const b = mix32((this.h2 + a) >>> 0);
    return new Stream(a, b, mix32(a ^ b ^ 0x5bd1e995));
  }

  /**
   * The first `out.length` floats of record `index`'s stream, as `at(index).float()` gives them
   * one by one: the state stays in locals, with no call a draw, which is what a scan of fifty
   * million records can afford (about a third of a seated stream's cost). The Status, Duration
   * and Price key scans (generators/call-keys.ts) make the same seeding and rounds themselves.
   * @example family.fill(400, new Float64Array(2)) // Float64Array [0.1937…, 0.8120…]
   */
  fill(index: number, out: Float64Array): Float64Array {
    let a = mix32(this.h1 ^ Math.imul(index, 0x9e3779b1));
    let b = mix32((this.h2 + a) >>> 0);
    let c = mix32(a ^ b ^ 0x5bd1e995) | 0;
    a |= 0;
    b |= 0;
    let d = 1;
    const n = out.length + STREAM_WARM_UP;
    for (let k = 0; k < n; k++) {
      const t = (((a + b) | 0) + d) | 0;
      d = (d + 1) | 0;
      a = b ^ (b >>> 9);
      b = (c + (c << 3)) | 0;
      c = (((c << 21) | (c >>> 11)) + t) | 0;
      if (k >= STREAM_WARM_UP) out[k - STREAM_WARM_UP] = (t >>> 0) / TWO_POW_32;
    }
    return out;
  }

  /**
   * Sets `stream` to record `index`'s stream, the one `at(index)` makes: what a scan of many
   * records uses, so that it allocates nothing per record.
   */
  seat(stream: Stream, index: number): Stream {
    const a = mix32(this.h1 ^ Math.imul(index, 0x9e3779b1));
    const b = mix32((this.h2 + a) >>> 0);
    stream.set(a, b, mix32(a ^ b ^ 0x5bd1e995));
    return stream;
  }
}
