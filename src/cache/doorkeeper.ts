/**
 * Admission to a cache on the second sight: a Bloom filter of the keys seen since it was last
 * emptied. Something asked for once is the common case of a walk or a load test (every page and
 * every record new), and keeping it costs the insert, an eviction, and a string that lives long
 * enough to reach the old generation, only for it to be evicted unread: a quarter of a cold
 * walk's throughput. Something asked for twice is kept from then on.
 *
 * A filter rather than a table of slots, so that two keys asked for in turn never push each other
 * out (with a slot each they could, for good). Once it has taken an eighth of its bits in keys
 * it is emptied, before false sights (which let a key in on its first) pass about 5%; a key then
 * needs two more sights. Either way only when a key is kept moves, never what is answered.
 * @example const door = new Doorkeeper(10); door.admits(7) // false; door.admits(7) // true
 */
export class Doorkeeper {
  private readonly bits: Int32Array;
  private readonly mask: number;
  private readonly capacity: number;
  private added = 0;

  /** A filter of 2^log2Bits bits. */
  constructor(log2Bits: number) {
    this.bits = new Int32Array(Math.max(1, 2 ** (log2Bits - 5)));
    this.mask = 2 ** log2Bits - 1;
    this.capacity = Math.max(1, 2 ** (log2Bits - 3));
  }

  /** Whether `hash` (32 bits) was seen before; it is remembered either way. */
  admits(hash: number): boolean {
    // Two bit positions from one hash: its low bits, and the low bits of the hash with its high
    // bits mixed down (murmur3's first steps), so that hashes alike in their low bits part.
    const a = hash & this.mask;
    const m = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
    const b = (m ^ (m >>> 13)) & this.mask;
    const wa = a >>> 5;
    const wb = b >>> 5;
    const ba = 1 << (a & 31);
    const bb = 1 << (b & 31);
    if (((this.bits[wa] as number) & ba) !== 0 && ((this.bits[wb] as number) & bb) !== 0) return true;
    if (++this.added > this.capacity) this.clear();
    this.bits[wa]! |= ba;
    this.bits[wb]! |= bb;
    return false;
  }

  /** Forgets every sight. */
  clear(): void {
    this.bits.fill(0);
    this.added = 0;
  }
}

/** FNV-1a of a string's code units, for `Doorkeeper.admits`. @example textHash('a') // 3826002220 */
export function textHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
