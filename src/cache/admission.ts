import type { ByteLru } from './byte-lru';
import { Doorkeeper } from './doorkeeper';
import { FrequencySketch } from './frequency-sketch';

/**
 * Who gets into a byte-bounded cache (TinyLFU's admission): something asked for a second time
 * (the `Doorkeeper`), and, once the cache is full, only if it was asked for more often lately
 * than what it would push out. Without that contest a round of requests larger than the cache (a
 * load test cycling through more pages than it holds) kept what it built and pushed each out
 * before it was asked again: nothing hit, and every entry lived long enough to cost the
 * collector. Only sights past the doorkeeper are counted, so that one-offs, the most of a walk,
 * leave the counts clean.
 * @example const a = new Admission(10, 8); a.admits(7, lru, (key) => key) // false: first sight
 */
export class Admission {
  private readonly door: Doorkeeper;
  private readonly sights: FrequencySketch;

  /** A doorkeeper of 2^log2Bits bits, counts in rows of 2^log2Width. */
  constructor(log2Bits: number, log2Width: number) {
    this.door = new Doorkeeper(log2Bits);
    this.sights = new FrequencySketch(log2Width);
  }

  /**
   * Whether the entry whose key hashes to `hash`, asked for and missed, is to be kept in
   * `cache`. `victimHash` hashes the key of the entry it would push out (the oldest).
   */
  admits<K, V>(hash: number, cache: ByteLru<K, V>, victimHash: (victim: K) => number): boolean {
    if (!this.door.admits(hash)) return false;
    this.sights.add(hash);
    // Full: one more entry of the mean size would push one out.
    if (cache.bytes + cache.bytes / Math.max(1, cache.size) <= cache.maxBytes) return true;
    const victim = cache.oldestKey();
    return victim === undefined || this.sights.estimate(hash) > this.sights.estimate(victimHash(victim));
  }

  /** Counts a sight of an entry the cache held. */
  hit(hash: number): void {
    this.sights.add(hash);
  }
}
