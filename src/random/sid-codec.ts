import { hash64, hex8, mix32 } from './stream';

const ROUNDS = 3;

/**
 * The 32 hex digits of a seeded record's sid, computed from its index and back. They look random,
 * but a keyed, invertible mixing of (index, check words) lets a sid be turned back into its
 * index: single records are found by sid in O(1), even among ten million, and a sid made up by
 * a client (or one of another account) fails the check instead of matching something.
 *
 * The mixing is a chain of steps `w[b] ^= mix(w[a] + key)`, each undone by repeating it.
 */
export class SidCodec {
  /** The key each of the ROUNDS × 4 steps adds, in step order. */
  private readonly schedule: Uint32Array;
  private readonly check: [number, number];
  /**
   * The four words being mixed: a typed array, since half of all 32-bit words are too large for
   * V8's small integers, and an array of them would box each one (every record rendered encodes a sid).
   */
  private readonly w = new Uint32Array(4);

  /** @example new SidCodec(['callrec', 'AC0f…', 'call']).encode(400) // '9c1e…' (32 hex digits) */
  constructor(key: ReadonlyArray<string>) {
    const [a, b] = hash64(key.join('\u001f'));
    const [c, d] = hash64(`${key.join('\u001f')}\u001fcheck`);
    const keys = [a, b, c, d, mix32(a ^ d), mix32(b ^ c)];
    this.schedule = Uint32Array.from({ length: ROUNDS * 4 }, (_, t) => keys[t % keys.length] as number);
    this.check = [c, d];
  }

  /** The words of record `index` before mixing, written into `w`. */
  private words(index: number, w: Uint32Array): void {
    w[0] = index;
    w[1] = mix32(index ^ this.check[0]);
    w[2] = mix32(index + this.check[1]);
    w[3] = mix32(mix32(index) ^ this.check[0] ^ this.check[1]);
  }

  /** Step t: `w[b] ^= mix(w[a] + key)` with a = t mod 4 and b the word after it; its own inverse. */
  private step(w: Uint32Array, t: number): void {
    const b = (t + 1) & 3;
    w[b] = (w[b] as number) ^ mix32((w[t & 3] as number) + (this.schedule[t] as number));
  }

  /** The hex digits for record `index`. */
  encode(index: number): string {
    const w = this.w;
    this.words(index, w);
    for (let t = 0; t < ROUNDS * 4; t++) this.step(w, t);
    // Concatenation, not map/join: every seeded record rendered encodes a sid.
    return hex8(w[0] as number) + hex8(w[1] as number) + hex8(w[2] as number) + hex8(w[3] as number);
  }

  /** The index a sid's hex digits stand for, or undefined when they are not this codec's. */
  decode(hex: string): number | undefined {
    if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
    const w = this.w;
    for (let i = 0; i < 4; i++) w[i] = parseInt(hex.slice(i * 8, i * 8 + 8), 16);
    for (let t = ROUNDS * 4 - 1; t >= 0; t--) this.step(w, t);
    const mixed = Array.from(w);
    const index = mixed[0] as number;
    this.words(index, w);
    return mixed.every((x, i) => x === w[i]) ? index : undefined;
  }
}
