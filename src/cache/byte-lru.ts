/**
 * A least-recently-used map bounded by the bytes of what it holds, not by entry count: pages
 * range from 1 KB to megabytes, so a count would bound nothing.
 * @example const lru = new ByteLru<string, string>(1024); lru.set('a', 'x'.repeat(600), 600)
 */
export class ByteLru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private used = 0;
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
    // A Map iterates in insertion order: re-inserting moves the entry to the young end.
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** Stores the value, evicting the least recently used until it fits; a value larger than the whole budget is not kept. */
  set(key: K, value: V, bytes: number): void {
    const old = this.map.get(key);
    if (old !== undefined) {
      this.map.delete(key);
      this.used -= old.bytes;
    }
    if (bytes > this.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.used += bytes;
    while (this.used > this.maxBytes) {
      const oldest = this.map.keys().next().value as K;
      this.used -= (this.map.get(oldest) as { bytes: number }).bytes;
      this.map.delete(oldest);
    }
  }

  clear(): void {
    this.map.clear();
    this.used = 0;
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.used;
  }
}
