/** One API request as the journal keeps it. */
export interface JournalEntry {
  id: number;
  /** Wall-clock time the request arrived, ISO 8601 (the journal is about when, not data). */
  time: string;
  method: string;
  path: string;
  /** The raw query string, as sent. */
  query: string;
  /** The account sid in the path, if any. */
  account: string | null;
  /** 0 when the connection closed before a response (an injected reset, a client gone). */
  status: number;
  duration_ms: number;
  warnings: string[];
  /** The fault that touched the request, if any. */
  fault: { id: string; effect: string } | null;
}

export interface JournalFilter {
  account?: string;
  /** A path prefix. */
  path?: string;
  status?: number;
  /** Entries at or after this instant (ms since the epoch). */
  sinceMs?: number;
  limit?: number;
}

/**
 * The request journal: a ring buffer of the last `size` API requests, so that it never grows
 * however long a test run lasts. Newest first when read.
 */
export class Journal {
  private readonly ring: (JournalEntry | undefined)[];
  private next = 0;
  private total = 0;

  constructor(readonly size: number) {
    this.ring = new Array<JournalEntry | undefined>(size);
  }

  add(entry: Omit<JournalEntry, 'id'>): void {
    if (this.size === 0) return;
    this.ring[this.next] = { id: ++this.total, ...entry };
    this.next = (this.next + 1) % this.size;
  }

  /** Entries newest first, filtered. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const limit = filter.limit ?? this.size;
    for (let k = 1; k <= this.size && out.length < limit; k++) {
      const e = this.ring[(this.next - k + this.size) % this.size];
      if (e === undefined) break;
      if (filter.account !== undefined && e.account !== filter.account) continue;
      if (filter.path !== undefined && !e.path.startsWith(filter.path)) continue;
      if (filter.status !== undefined && e.status !== filter.status) continue;
      if (filter.sinceMs !== undefined && Date.parse(e.time) < filter.sinceMs) continue;
      out.push(e);
    }
    return out;
  }

  /** Entries held now. */
  get count(): number {
    return Math.min(this.total, this.size);
  }

  /** Requests journaled since start or the last clear. */
  get seen(): number {
    return this.total;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.total = 0;
  }
}
