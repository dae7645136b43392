/**
 * A least-recently-used map bounded by the bytes of what it holds, not by entry count: pages
 * range from 1 KB to megabytes, so a count would bound nothing.
 * @example const lru = new ByteLru<string, string>(1024); lru.set('a', 'x'.repeat(600), 600)
 */
export class ByteLru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private used = 0;
  /** Where eviction goes on from (see `evictOldest`). */
  private cursor: MapIterator<K> | null = null;
  /** The oldest key, once `oldest` has looked (the cursor has passed it): evicted next. */
  private peeked: K | undefined;
  private hasPeeked = false;
  /** Lookups that found their entry, and that did not: for tests and the benchmark. */
  hits = 0;
  misses = 0;

  constructor(readonly maxBytes: number) {}

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    if (this.hasPeeked && this.peeked === key) this.hasPeeked = false;
    // A Map iterates in insertion order: re-inserting moves the entry to the young end.
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** Stores the value, evicting the least recently used until it fits; a value larger than the whole budget is not kept. */
  set(key: K, value: V, bytes: number): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      if (this.hasPeeked && this.peeked === key) this.hasPeeked = false;
      this.map.delete(key);
      this.used -= old.bytes;
    }
    if (bytes > this.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.used += bytes;
    while (this.used > this.maxBytes && this.map.size > 0) this.evictOldest();
  }

  /**
   * Drops the least recently used entry. One iterator lives on between evictions: a Map keeps
   * a deleted entry's slot until it rehashes, so a fresh `keys().next()` walked every slot
   * evicted (or moved young) since then, on every eviction: a third of a cold walk's CPU once
   * the items budget was full. The living iterator passes each slot once; an entry moved to the
   * young end, or added, is met again only after every older one, which is the LRU order.
   */
  private evictOldest(): void {
    if (!this.peekOldest()) return;
    const key = this.peeked as K;
    this.hasPeeked = false;
    this.used -= (this.map.get(key) as { bytes: number }).bytes;
    this.map.delete(key);
  }

  /** Finds the least recently used key with the living cursor, into `peeked`; false when empty. */
  private peekOldest(): boolean {
    while (this.map.size > 0) {
      if (this.hasPeeked && this.map.has(this.peeked as K)) return true;
      this.cursor ??= this.map.keys();
      const next = this.cursor.next();
      if (next.done === true) {
        this.cursor = null;
        this.hasPeeked = false;
      } else {
        this.peeked = next.value;
        this.hasPeeked = true;
      }
    }
    return false;
  }

  /** The least recently used key, left where it is: what a newcomer would push out first. */
  oldestKey(): K | undefined {
    return this.peekOldest() ? this.peeked : undefined;
  }

  clear(): void {
    this.map.clear();
    this.cursor = null;
    this.hasPeeked = false;
    this.used = 0;
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.used;
  }
}
