import type { WalkPage } from '../query/walk';
import { newestFirst, Ring } from './ring';

/** One account's entries (or those naming none). */
type Lane = Ring<Held>;
export interface JournalFilter {
  account?: string;
  method?: string;
  /** A path prefix. */
  path?: string;
  status?: number;
  /** Entries at or after this instant (ms since the epoch). */
  sinceMs?: number;
  limit?: number;
  /** Include the inspector's own requests (left out by default). */
  inspector?: boolean;
}

/** What the journal keeps of an answer's body: enough to read an error or a page's head. */
export const BODY_BYTES = 2048;

/** Answers whose body is held by reference, newest: a successful page is kept only this long. */
export const RECENT_BODIES = 32;
/** And only while they hold this many bytes together (a thousand-item page is a megabyte). */
const RECENT_BODY_BYTES = 8 * 1024 * 1024;

/** The first BODY_BYTES bytes of a body, copied (a view would hold the whole body alive). */
function headOf(body: Buffer | string): Buffer {
  const bytes =
    typeof body === 'string' ? Buffer.from(body.length > BODY_BYTES ? body.slice(0, BODY_BYTES) : body) : body;
  return Buffer.from(bytes.subarray(0, BODY_BYTES));
}

/**
 * The head of a body that lives nowhere else (a page built for this request): holding the page
 * itself kept it alive long enough to reach V8's old generation, and its bytes, outside the
 * heap, then called a full collection about every 170 ms of a cold walk (a tenth of its CPU).
 */
function copyHead(body: Buffer | string): HeadCopy {
  return { head: headOf(body), bytes: bytesOf(body) };
}

/** A body's length in bytes. */
const bytesOf = (body: Buffer | string) => (typeof body === 'string' ? Buffer.byteLength(body) : body.length);

/** What is held of a recent answer's body that lives nowhere else: its head, and its whole length. */
interface HeadCopy {
  head: Buffer;
  bytes: number;
}
/** A recent answer's body: by reference where it lives on anyway, else a copy of its head. */
type Recent = Buffer | string | HeadCopy;
const recentHead = (r: Recent) => (typeof r === 'string' || Buffer.isBuffer(r) ? headOf(r) : r.head);
const recentBytes = (r: Recent) => (typeof r === 'string' || Buffer.isBuffer(r) ? bytesOf(r) : r.bytes);
/** What holding it costs: a body held by reference counts whole (it is kept alive). */
const heldBytes = (r: Recent) => (typeof r === 'string' || Buffer.isBuffer(r) ? r.length : r.head.length);

/** The key of the inspector's lane: no account sid looks like it. */
const INSPECTOR_LANE = 'inspector';
/** What the journal keeps of each text at most; the entry says when something was cut. */
export const JOURNAL_TEXT_CHARS = 1024;
/** Warnings kept per entry at most (each cut to JOURNAL_TEXT_CHARS). */
const MAX_WARNINGS = 8;
/** The journal's whole budget: past it the oldest entries go, whatever `--journal-size` says. */
export const JOURNAL_BYTES = 32 * 1024 * 1024;
/**
 * What an entry costs besides its texts: the object, its numbers and short strings, its map
 * entry and lane slot, as measured on a full journal (heap and external memory after a
 * collection, over the entries held).
 */
const ENTRY_OVERHEAD = 640;
/** What a list page's walk costs besides its ids: the typed array and its backing store. */
const WALK_OVERHEAD = 384;

/**
 * A string of its own: V8 keeps a slice as a view of the string it was cut from, so the cut
 * first 1,024 characters of an 8 KB query would hold all 8 KB (and the path, a slice of the
 * request line, the whole line): the journal counted a few hundred bytes an entry and held
 * 29-36 KB.
 */
const own = (text: string) => (text.length === 0 ? '' : Buffer.from(text, 'utf8').toString('utf8'));
/**
 * A request line this short is held as node gave it: path and query are views of it, and what
 * they keep alive is counted (`LINE_BYTES`). A longer one is copied out, so that nothing holds it.
 */
const SHORT = 256;
const LINE_BYTES = 2 * SHORT;

const cut = (text: string) => (text.length > JOURNAL_TEXT_CHARS ? text.slice(0, JOURNAL_TEXT_CHARS) : text);

/**
 * What the front door hands over: an entry's fields, with numbers as measured (the arrival in
 * ms; the text `time` is formatted only when someone reads), and for a list page what the walks
 * report needs.
 */
export interface JournalRecord {
  method: string;
  path: string;
  /** The raw query string, as sent. */
  query: string;
  /** The account sid in the path, if any. */
  account: string | null;
  /** 0 when the connection closed before a response (an injected reset, a client gone). */
  status: number;
  duration_ms: number;
  /** The fault that touched the request, if any. */
  fault: { id: string; effect: string } | null;
  /** Sent by the inspector; absent: a client's. */
  inspector?: boolean;
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
  /** The answer's body as sent (held by reference until `add` copies its head). */
  body?: Buffer | string | null;
  /** The body lives on elsewhere (a cached answer): held by reference costs nothing. */
  bodyShared?: boolean;
}

/** A list page in the journal, as the walks report reads it. */
export interface JournaledPage {
  id: number;
  /** The Authorization header; in a fleet's report, its digest (credentials never leave a replica). */
  credentials: string;
  query: string;
  walk: WalkPage;
  /** Wall time it arrived: orders one client's pages served by different replicas. */
  arrivedMs: number;
  /** The replica that served it, in a fleet's report. */
  replica?: string;
}

/** An entry as held: the record, bounded, with its id and its cost. */
interface Held extends Omit<JournalRecord, 'body'> {
  inspector: boolean;
  /** The body's first BODY_BYTES bytes, copied (a view would hold the whole body alive). */
  bodyHead: Buffer | null;
  /** The body's length, bytes (a streamed page: its first chunk's). */
  bodyBytes: number;
  id: number;
  truncated: boolean;
  bytes: number;
}

/** An entry as the journal holds it, read-only: what the admin API's views are made of. */
export type JournalHeld = Readonly<Held>;

const NO_WARNINGS: readonly string[] = Object.freeze([]);
const NO_HEADERS: readonly string[] = Object.freeze([]);
const NO_RESPONSE_HEADERS: Readonly<Record<string, unknown>> | readonly string[] = Object.freeze({});
/** What a response's headers cost in the budget: a dozen short ones. */
const RESPONSE_HEADER_BYTES = 512;

/** Whether an entry passes a filter (the limit aside). */
function passes(e: Held, filter: JournalFilter): boolean {
  return (
    (filter.account === undefined || e.account === filter.account) &&
    (filter.method === undefined || e.method === filter.method) &&
    (filter.path === undefined || e.path.startsWith(filter.path)) &&
    (filter.status === undefined || e.status === filter.status) &&
    (filter.sinceMs === undefined || e.arrivedMs >= filter.sinceMs)
  );
}

/**
 * The request journal: for each account, a ring of its last `size` API requests (and one for
 * requests naming no account), all bounded in bytes together (a client that sends 8 KB queries
 * cannot make it hold gigabytes), so that it never grows however long a test run lasts.
 *
 * Each account keeps its own: test workers sharing one emulator each read their sandbox's
 * entries, and a neighbour's thousand requests cannot evict them. When the byte budget is spent,
 * the entry that goes is the oldest of an account holding more than its share (the one just
 * written to, when it does; else the largest), never a quiet account's.
 *
 * Adding is on every request's path, so it only stores what it is given (cutting what is too
 * long); times are formatted when the journal is read. Newest first when read.
 */
export class Journal {
  private readonly lanes = new Map<string, Lane>();
  /**
   * Each account sid as a string of its own: the sid a route read is a slice of the request line,
   * and an entry holding it held the whole line (15,000 requests with 8 KB queries kept 90 MB of
   * heap for a 32 MB budget). One copy an account, shared by its entries.
   */
  private readonly sids = new Map<string, string>();
  private readonly byId = new Map<number, Held>();
  /** The bodies of the newest successful answers, by entry id (see RECENT_BODIES). */
  private readonly bodies = new Map<number, Recent>();
  private bodyBytes = 0;
  private bytes = 0;
  private total = 0;

  constructor(
    readonly size: number,
    private readonly budget = JOURNAL_BYTES,
  ) {}

  add(record: JournalRecord): void {
    if (this.size === 0) return;
    // Path and query are cut from one request line: copied out of it when it is long.
    const long = record.path.length + record.query.length > SHORT;
    const path = long ? own(cut(record.path)) : record.path;
    const query = long ? own(cut(record.query)) : record.query;
    let truncated = path !== record.path || query !== record.query;
    let warnings = NO_WARNINGS;
    // Two bytes a character, as V8 may store them, and the entry itself.
    let chars = path.length + query.length + (long ? 0 : LINE_BYTES);
    if (record.warnings.length > 0) {
      // Each its own string: a warning quotes the query, and a short one built of slices would hold all of it.
      const kept = record.warnings.slice(0, MAX_WARNINGS).map((w) => own(cut(w)));
      truncated ||= kept.length < record.warnings.length || kept.some((w, i) => w !== record.warnings[i]);
      for (const w of kept) chars += w.length;
      warnings = kept;
    }
    // An error or an injected answer is small and rare: its head is copied and kept as long as the
    // entry. A successful page is held by reference among the newest RECENT_BODIES only: copying
    // every page's head cost a sixth of the hot page's throughput.
    // A header value past the journal's text length is cut and copied, as the query is: kept
    // whole, 15,000 requests with 8 KB headers left the heap holding about six times the budget
    // (strings that lived long enough to be promoted, then dropped by the budget).
    let requestHeaders = record.requestHeaders ?? NO_HEADERS;
    if (requestHeaders.some((h) => h.length > JOURNAL_TEXT_CHARS)) {
      requestHeaders = requestHeaders.map((h) => (h.length > JOURNAL_TEXT_CHARS ? own(cut(h)) : h));
      truncated = true;
    }
    const body = record.body ?? null;
    const kept = body !== null && (record.status >= 300 || record.fault !== null);
    const bodyHead = kept ? headOf(body) : null;
    const bodyBytes = kept ? bytesOf(body) : 0;
    // A literal of one fixed shape (a spread made every entry a slow, dictionary-mode object).
    const entry: Held = {
      arrivedMs: record.arrivedMs,
      method: record.method,
      path,
      query,
      account: record.account === null ? null : this.ownSid(record.account),
      status: record.status,
      duration_ms: record.duration_ms,
      warnings,
      fault: record.fault,
      inspector: record.inspector === true,
      bodyHead,
      bodyBytes,
      walk: record.walk ?? null,
      credentials: record.credentials ?? null,
      requestHeaders,
      responseHeaders: record.responseHeaders ?? NO_RESPONSE_HEADERS,
      id: ++this.total,
      truncated,
      bytes: ENTRY_OVERHEAD + 2 * chars,
    };
    // Headers are bounded by node (16 KB a request) and counted in the budget as they are, with
    // the array and a string header each.
    for (const h of entry.requestHeaders ?? NO_HEADERS) entry.bytes += 2 * h.length + 32;
    if (record.responseHeaders !== undefined) entry.bytes += RESPONSE_HEADER_BYTES;
    entry.bytes += entry.bodyHead?.length ?? 0;
    if (entry.walk !== null && entry.walk !== undefined)
      entry.bytes += WALK_OVERHEAD + 4 * entry.walk.ids.length + 2 * (entry.credentials?.length ?? 0);
    // The inspector's requests have a lane of their own: a person browsing (a waveform is dozens
    // of range requests) never evicts what a test client's requests left.
    const key = entry.inspector ? INSPECTOR_LANE : (entry.account ?? '');
    let lane = this.lanes.get(key);
    if (lane === undefined) {
      lane = new Ring<Held>(key);
      this.lanes.set(key, lane);
    }
    lane.push(entry);
    this.byId.set(entry.id, entry);
    if (body !== null && !kept) this.holdBody(entry.id, record.bodyShared === true ? body : copyHead(body));
    this.bytes += entry.bytes;
    if (lane.length > this.size) this.dropOldest(lane);
    while (this.bytes > this.budget && this.byId.size > 1) this.dropOldest(this.overShare(lane));
  }

  private ownSid(sid: string): string {
    let kept = this.sids.get(sid);
    if (kept === undefined) {
      // Bounded by the accounts a client can name: past a few thousand, start again.
      if (this.sids.size >= 4096) this.sids.clear();
      kept = own(sid);
      this.sids.set(kept, kept);
    }
    return kept;
  }

  /** Holds a successful answer's body, among the newest few (see RECENT_BODIES). */
  private holdBody(id: number, body: Recent): void {
    this.bodies.set(id, body);
    this.bodyBytes += heldBytes(body);
    while (this.bodies.size > RECENT_BODIES || this.bodyBytes > RECENT_BODY_BYTES) {
      const [oldest, held] = this.bodies.entries().next().value as [number, Recent];
      this.bodies.delete(oldest);
      this.bodyBytes -= heldBytes(held);
    }
  }

  /**
   * The lane to take from when over budget: `lane` (just written to) while it holds more than
   * an equal share of the budget, which is the common case and O(1); else the largest.
   */
  private overShare(lane: Lane): Lane {
    if (lane.bytes * this.lanes.size > this.budget && lane.length > 0) return lane;
    let largest = lane;
    for (const l of this.lanes.values()) if (l.bytes > largest.bytes) largest = l;
    return largest;
  }

  private dropOldest(lane: Lane): void {
    const e = lane.shift();
    if (e === undefined) return;
    this.bytes -= e.bytes;
    this.byId.delete(e.id);
    const body = this.bodies.get(e.id);
    if (body !== undefined) {
      this.bodies.delete(e.id);
      this.bodyBytes -= heldBytes(body);
    }
    if (lane.length === 0) this.lanes.delete(lane.key);
  }

  /** The lanes a filter reads: one account's, or all; and the inspector's when it is asked for. */
  private lanesFor(filter: JournalFilter): Lane[] {
    const inspector = filter.inspector === true ? this.lanes.get(INSPECTOR_LANE) : undefined;
    if (filter.account === undefined) {
      return [...this.lanes.values()].filter((l) => l.key !== INSPECTOR_LANE || inspector !== undefined);
    }
    const lane = this.lanes.get(filter.account);
    return [lane, inspector].filter((l): l is Lane => l !== undefined);
  }

  /** Entries newest first, filtered; at most `limit` (default: `size`). The admin API shows them (admin/journal-views.ts). */
  list(filter: JournalFilter = {}): JournalHeld[] {
    const out: JournalHeld[] = [];
    const limit = filter.limit ?? this.size;
    if (limit <= 0) return out;
    for (const e of newestFirst(this.lanesFor(filter))) {
      if (passes(e, filter)) out.push(e);
      if (out.length >= limit) break;
    }
    return out;
  }

  /** How many entries held pass the filter, its limit aside: what a test asserts "exactly one 429" with. */
  countMatching(filter: JournalFilter = {}): number {
    let n = 0;
    for (const lane of this.lanesFor(filter)) {
      for (let k = 0; k < lane.length; k++) if (passes(lane.newest(k) as Held, filter)) n++;
    }
    return n;
  }

  /** One entry with the head of its answer's body (held, or of the body held by reference), or undefined once it has left the journal. */
  detail(id: number): { entry: JournalHeld; bodyHead: Buffer | null; bodyBytes: number } | undefined {
    const e = this.byId.get(id);
    if (e === undefined) return undefined;
    const recent = this.bodies.get(id);
    const bodyHead = e.bodyHead ?? (recent === undefined ? null : recentHead(recent));
    const bodyBytes = e.bodyHead !== null ? e.bodyBytes : recent === undefined ? 0 : recentBytes(recent);
    return { entry: e, bodyHead, bodyBytes };
  }

  /** The list pages held, oldest first, with their credentials: what the walks report reads. */
  walkPages(): JournaledPage[] {
    const out: JournaledPage[] = [];
    for (const e of newestFirst([...this.lanes.values()])) {
      if (e.walk != null)
        out.push({ id: e.id, credentials: e.credentials ?? '', query: e.query, walk: e.walk, arrivedMs: e.arrivedMs });
    }
    return out.reverse();
  }

  /** Entries held now. */
  get count(): number {
    return this.byId.size;
  }

  /** About the bytes the entries held take. */
  get heldBytes(): number {
    return this.bytes;
  }

  /** Requests journaled since start or the last clear of the whole journal. */
  get seen(): number {
    return this.total;
  }

  /** Empties the journal, or only one account's entries (ids then go on counting). */
  clear(account?: string): void {
    if (account !== undefined) {
      const lane = this.lanes.get(account);
      while (lane !== undefined && lane.length > 0) this.dropOldest(lane);
      return;
    }
    this.lanes.clear();
    this.byId.clear();
    this.bodies.clear();
    this.bodyBytes = 0;
    this.bytes = 0;
    this.total = 0;
  }
}
