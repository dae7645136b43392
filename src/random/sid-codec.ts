import { hash64, hex8, mix32 } from './stream';

const ROUNDS = 3;

/** The four 32-bit words a sid's hex digits are made of. */
type Words = [number, number, number, number];

/**
 * The 32 hex digits of a seeded record's sid, computed from its index and back. They look random,
 * but a keyed, invertible mixing of (index, check words) lets a sid be turned back into its
 * index: single records are found by sid in O(1), even among ten million, and a sid made up by
 * a client (or one of another account) fails the check instead of matching something.
 *
 * The mixing is a chain of steps `w[b] ^= mix(w[a] + key)`, each undone by repeating it.
 */
export class SidCodec {
  private readonly keys: number[];
  private readonly check: [number, number];

  /** @example new SidCodec(['callrec', 'AC0f…', 'call']).encode(400) // '9c1e…' (32 hex digits) */
  constructor(key: ReadonlyArray<string>) {
    const [a, b] = hash64(key.join('\u001f'));
    const [c, d] = hash64(`${key.join('\u001f')}\u001fcheck`);
    this.keys = [a, b, c, d, mix32(a ^ d), mix32(b ^ c)];
    this.check = [c, d];
  }

  private words(index: number): Words {
    return [
      index >>> 0,
      mix32(index ^ this.check[0]),
      mix32(index + this.check[1]),
      mix32(mix32(index) ^ this.check[0] ^ this.check[1]),
    ];
  }

  private step(w: Words, r: number, s: number): void {
    const a = (s % 4) as 0 | 1 | 2 | 3;
    const b = ((s + 1) % 4) as 0 | 1 | 2 | 3;
    w[b] = (w[b] ^ mix32(w[a] + this.keys[(r * 4 + s) % this.keys.length]!)) >>> 0;
  }

  /** The hex digits for record `index`. */
  encode(index: number): string {
    const w = this.words(index);
    for (let r = 0; r < ROUNDS; r++) for (let s = 0; s < 4; s++) this.step(w, r, s);
    // Concatenation, not map/join: every seeded record rendered encodes a sid.
    return hex8(w[0]) + hex8(w[1]) + hex8(w[2]) + hex8(w[3]);
  }

  /** The index a sid's hex digits stand for, or undefined when they are not this codec's. */
  decode(hex: string): number | undefined {
    if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
    const word = (i: number) => parseInt(hex.slice(i * 8, i * 8 + 8), 16);
    const w: Words = [word(0), word(1), word(2), word(3)];
    for (let r = ROUNDS - 1; r >= 0; r--) for (let s = 3; s >= 0; s--) this.step(w, r, s);
    const index = w[0];
    const expected = this.words(index);
    return expected.every((x, i) => x === w[i]) ? index : undefined;
  }
}
