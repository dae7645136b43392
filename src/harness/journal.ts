import type { WalkPage } from '../query/walk';
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

/** One entry with the headers of its request and its answer (`GET /__admin/requests/{id}`). */
export interface JournalDetail extends JournalEntry {
  /** As sent, in order, names as sent; Authorization and Cookie show their scheme only. */
  request_headers: [string, string][];
  /** As answered; empty when the connection closed before an answer. */
  response_headers: Record<string, string | number | string[]>;
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

/**
 * What the front door hands over: an entry's fields, with numbers as measured (the arrival in
 * ms; the text `time` is formatted only when someone reads), and for a list page what the walks
 * report needs.
 */
export interface JournalRecord extends Omit<JournalEntry, 'id' | 'time' | 'warnings' | 'truncated'> {
  /** Wall-clock milliseconds since the epoch the request arrived at. */
  arrivedMs: number;
  /** Not changed after it is handed over. */
  warnings: readonly string[];
  /** A list page served, for the walks report; null for anything else. */
  walk?: WalkPage | null;
  /** The Authorization header of a list page: walks are told apart by credentials. */
  credentials?: string | null;
  /** The request's raw headers (node's `rawHeaders`, held as they are: no copy on the request path). */
  requestHeaders?: readonly string[];
  /** The answer's headers, as `res.getHeaders()` gives them, or as node's flat [name, value, …] list. */
  responseHeaders?: Readonly<Record<string, unknown>> | readonly string[];
}

/** A list page in the journal, as the walks report reads it. */
export interface JournaledPage {
  id: number;
  credentials: string;
  query: string;
  walk: WalkPage;
}

/** An entry as held: the record, bounded, with its id and its cost. */
interface Held extends JournalRecord {
  id: number;
  truncated: boolean;
  bytes: number;
}

const NO_WARNINGS: readonly string[] = Object.freeze([]);
const NO_HEADERS: readonly string[] = Object.freeze([]);
const NO_RESPONSE_HEADERS: Readonly<Record<string, unknown>> | readonly string[] = Object.freeze({});
/** What a response's headers cost in the budget: a dozen short ones. */
const RESPONSE_HEADER_BYTES = 512;
/** Headers that carry a credential: the detail shows their scheme only. */
const secret = (name: string) => /^(authorization|cookie|proxy-authorization)$/i.test(name);

/**
 * The request journal: a ring of the last `size` API requests, bounded in bytes too (a client
 * that sends 8 KB queries cannot make it hold gigabytes), so that it never grows however long a
 * test run lasts. Newest first when read. Adding is on every request's path, so it only stores
 * what it is given (cutting what is too long); times are formatted when the journal is read.
 */
export class Journal {
  private readonly ring: (Held | undefined)[];
  /** Where the next entry goes, and how many are held (ending just before `next`). */
  private next = 0;
  private held = 0;
  private bytes = 0;
  private total = 0;

  constructor(
    readonly size: number,
    private readonly budget = JOURNAL_BYTES,
  ) {
    this.ring = new Array<Held | undefined>(size);
  }

  add(record: JournalRecord): void {
    if (this.size === 0) return;
    const path = cut(record.path);
    const query = cut(record.query);
    let truncated = path !== record.path || query !== record.query;
    let warnings = NO_WARNINGS;
    // Two bytes a character, as V8 may store them, and the entry itself.
    let chars = path.length + query.length;
    if (record.warnings.length > 0) {
      const kept = record.warnings.slice(0, MAX_WARNINGS).map(cut);
      truncated ||= kept.length < record.warnings.length || kept.some((w, i) => w !== record.warnings[i]);
      for (const w of kept) chars += w.length;
      warnings = kept;
    }
    // A literal of one fixed shape (a spread made every entry a slow, dictionary-mode object).
    const entry: Held = {
      arrivedMs: record.arrivedMs,
      method: record.method,
      path,
      query,
      account: record.account,
      status: record.status,
      duration_ms: record.duration_ms,
      warnings,
      fault: record.fault,
      walk: record.walk ?? null,
      credentials: record.credentials ?? null,
      requestHeaders: record.requestHeaders ?? NO_HEADERS,
      responseHeaders: record.responseHeaders ?? NO_RESPONSE_HEADERS,
      id: ++this.total,
      truncated,
      bytes: ENTRY_OVERHEAD + 2 * chars,
    };
    // Headers are bounded by node (16 KB a request) and counted in the budget as they are.
    for (const h of entry.requestHeaders ?? NO_HEADERS) entry.bytes += 2 * h.length;
    if (record.responseHeaders !== undefined) entry.bytes += RESPONSE_HEADER_BYTES;
    if (entry.walk !== null && entry.walk !== undefined)
      entry.bytes += 4 * entry.walk.ids.length + 2 * (entry.credentials?.length ?? 0);
    if (this.held === this.size) this.dropOldest();
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.size;
    this.held++;
    this.bytes += entry.bytes;
    while (this.bytes > this.budget && this.held > 1) this.dropOldest();
  }

  private dropOldest(): void {
    const oldest = (this.next - this.held + this.size) % this.size;
    const e = this.ring[oldest];
    if (e !== undefined) this.bytes -= e.bytes;
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
      if (filter.sinceMs !== undefined && e.arrivedMs < filter.sinceMs) continue;
      out.push(entryOf(e));
    }
    return out;
  }

  /** One entry with its headers, or undefined once it has left the journal. */
  detail(id: number): JournalDetail | undefined {
    for (let k = 1; k <= this.held; k++) {
      const e = this.ring[(this.next - k + this.size) % this.size];
      if (e === undefined || e.id < id) return undefined;
      if (e.id === id) return detailOf(e);
    }
    return undefined;
  }

  /** The list pages held, oldest first, with their credentials: what the walks report reads. */
  walkPages(): JournaledPage[] {
    const out: JournaledPage[] = [];
    for (let k = this.held; k >= 1; k--) {
      const e = this.ring[(this.next - k + this.size) % this.size];
      if (e?.walk != null) out.push({ id: e.id, credentials: e.credentials ?? '', query: e.query, walk: e.walk });
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

/** An entry as the admin API shows it, keys in the documented order. */
function entryOf(e: Held): JournalEntry {
  return {
    id: e.id,
    time: new Date(e.arrivedMs).toISOString(),
    method: e.method,
    path: e.path,
    query: e.query,
    account: e.account,
    status: e.status,
    duration_ms: e.duration_ms,
    warnings: [...e.warnings],
    fault: e.fault,
    truncated: e.truncated,
  };
}

/** An entry with its headers; a credential shows its scheme only (`Basic …`), never the secret. */
function detailOf(e: Held): JournalDetail {
  const raw = e.requestHeaders ?? NO_HEADERS;
  const request: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const value = cut(raw[i + 1] ?? '');
    request.push([name, secret(name) ? `${value.split(' ')[0] ?? ''} …` : value]);
  }
  const response: Record<string, string | number | string[]> = {};
  const given = e.responseHeaders ?? NO_RESPONSE_HEADERS;
  const pairs = Array.isArray(given)
    ? Array.from({ length: Math.floor(given.length / 2) }, (_, i) => [
        String(given[2 * i]).toLowerCase(),
        given[2 * i + 1],
      ])
    : Object.entries(given).map(([name, value]) => [name.toLowerCase(), value]);
  for (const [name, value] of pairs as [string, unknown][]) {
    if (typeof value === 'string' || typeof value === 'number') response[name] = value;
    else if (Array.isArray(value)) response[name] = value.map(String);
  }
  return { ...entryOf(e), request_headers: request, response_headers: response };
}
