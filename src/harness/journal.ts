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
  /** True when the path, the query or a warning was cut to fit the journal's bounds. */
  truncated: boolean;
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

/** What the journal keeps of each text at most; the entry says when something was cut. */
export const JOURNAL_TEXT_CHARS = 1024;
/** Warnings kept per entry at most (each cut to JOURNAL_TEXT_CHARS). */
const MAX_WARNINGS = 8;
/** The journal's whole budget: past it the oldest entries go, whatever `--journal-size` says. */
export const JOURNAL_BYTES = 32 * 1024 * 1024;
/** What an entry costs besides its texts: the object, its numbers and short strings. */
const ENTRY_OVERHEAD = 256;

const cut = (text: string) => (text.length > JOURNAL_TEXT_CHARS ? text.slice(0, JOURNAL_TEXT_CHARS) : text);

/** About what an entry holds, in bytes (two per character, as V8 may store them). */
function bytesOf(e: JournalEntry): number {
  let chars = e.path.length + e.query.length;
  for (const w of e.warnings) chars += w.length;
  return ENTRY_OVERHEAD + 2 * chars;
}

/**
 * The request journal: a ring of the last `size` API requests, bounded in bytes too (a client
 * that sends 8 KB queries cannot make it hold gigabytes), so that it never grows however long a
 * test run lasts. Newest first when read.
 */
export class Journal {
  private readonly ring: (JournalEntry | undefined)[];
  /** Where the next entry goes, and how many are held (ending just before `next`). */
  private next = 0;
  private held = 0;
  private bytes = 0;
  private total = 0;

  constructor(
    readonly size: number,
    private readonly budget = JOURNAL_BYTES,
  ) {
    this.ring = new Array<JournalEntry | undefined>(size);
  }

  add(entry: Omit<JournalEntry, 'id' | 'truncated'>): void {
    if (this.size === 0) return;
    const warnings = entry.warnings.slice(0, MAX_WARNINGS).map(cut);
    const kept: JournalEntry = {
      id: ++this.total,
      ...entry,
      path: cut(entry.path),
      query: cut(entry.query),
      warnings,
      truncated: false,
    };
    kept.truncated =
      kept.path !== entry.path ||
      kept.query !== entry.query ||
      warnings.length < entry.warnings.length ||
      warnings.some((w, i) => w !== entry.warnings[i]);
    if (this.held === this.size) this.dropOldest();
    this.ring[this.next] = kept;
    this.next = (this.next + 1) % this.size;
    this.held++;
    this.bytes += bytesOf(kept);
    while (this.bytes > this.budget && this.held > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const oldest = (this.next - this.held + this.size) % this.size;
    const e = this.ring[oldest];
    if (e !== undefined) this.bytes -= bytesOf(e);
    this.ring[oldest] = undefined;
    this.held--;
  }

  /** Entries newest first, filtered. */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const limit = filter.limit ?? this.size;
    for (let k = 1; k <= this.held && out.length < limit; k++) {
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
    return this.held;
  }

  /** About the bytes the entries held take. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Requests journaled since start or the last clear. */
  get seen(): number {
    return this.total;
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.held = 0;
    this.bytes = 0;
    this.total = 0;
  }
}
