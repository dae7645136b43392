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
  /** True when the path, the query, a warning or a request header was cut to fit the journal's bounds. */
  truncated: boolean;
  /** Sent by the inspector (`X-Emulator-Inspector`): listed only when asked for, never a walk. */
  inspector: boolean;
}

/** One entry with the headers of its request and its answer (`GET /__admin/requests/{id}`). */
export interface JournalDetail extends JournalEntry {
  /** As sent, in order, names as sent; Authorization and Cookie show their scheme only. */
  request_headers: [string, string][];
  /** As answered; empty when the connection closed before an answer. */
  response_headers: Record<string, string | number | string[]>;
  /** The answer's first BODY_BYTES bytes as text (a streamed page: of its first chunk); null for none kept (audio, no answer). */
  response_body: string | null;
  /** Whether the answer went on past what `response_body` holds. */
  response_body_truncated: boolean;
}

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
export interface JournalRecord extends Omit<JournalEntry, 'id' | 'time' | 'warnings' | 'truncated' | 'inspector'> {
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

const NO_WARNINGS: readonly string[] = Object.freeze([]);
const NO_HEADERS: readonly string[] = Object.freeze([]);
const NO_RESPONSE_HEADERS: Readonly<Record<string, unknown>> | readonly string[] = Object.freeze({});
/** What a response's headers cost in the budget: a dozen short ones. */
const RESPONSE_HEADER_BYTES = 512;
/** Headers that carry a credential: the detail shows their scheme only. */
const secret = (name: string) => /^(authorization|cookie|proxy-authorization)$/i.test(name);

/**
 * One account's entries (or those naming none), oldest first: an array with a moving head, so
 * that dropping the oldest is O(1) and holding few entries costs little.
 */
class Lane {
  private items: (Held | undefined)[] = [];
  private head = 0;
  bytes = 0;

  constructor(readonly key: string) {}

  get length(): number {
    return this.items.length - this.head;
  }

  push(e: Held): void {
    this.items.push(e);
    this.bytes += e.bytes;
  }

  /** Removes and returns the oldest entry. */
  shift(): Held | undefined {
    const e = this.items[this.head];
    if (e === undefined) return undefined;
    this.items[this.head++] = undefined;
    this.bytes -= e.bytes;
    // Compact once the dropped part is most of the array, so it never grows without bound.
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return e;
  }

  /** The k-th newest entry (0: the newest), or undefined past the oldest. */
  newest(k: number): Held | undefined {
    return k < this.length ? this.items[this.items.length - 1 - k] : undefined;
  }
}

/**
 * Merges lanes into one sequence of entries, newest first (by id, which orders arrivals): a
 * heap of the lanes by their next entry, so reading n entries of L lanes is O(n log L).
 */
function* newestFirst(lanes: readonly Lane[]): Generator<Held> {
  // heap[i] = [id of the lane's next entry, lane index, how far into the lane]
  type Cursor = [number, number, number];
  const heap: Cursor[] = [];
  const less = (i: number, j: number) => (heap[i] as Cursor)[0] > (heap[j] as Cursor)[0];
  const swap = (i: number, j: number) => {
    const t = heap[i] as Cursor;
    heap[i] = heap[j] as Cursor;
    heap[j] = t;
  };
  const down = (from: number) => {
    let i = from;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && less(l, top)) top = l;
      if (r < heap.length && less(r, top)) top = r;
      if (top === i) return;
      swap(i, top);
      i = top;
    }
  };
  lanes.forEach((lane, l) => {
    const e = lane.newest(0);
    if (e !== undefined) heap.push([e.id, l, 0]);
  });
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const top = heap[0] as Cursor;
    const lane = lanes[top[1]] as Lane;
    yield lane.newest(top[2]) as Held;
    const next = lane.newest(top[2] + 1);
    if (next === undefined) {
      swap(0, heap.length - 1);
      heap.pop();
    } else {
      heap[0] = [next.id, top[1], top[2] + 1];
    }
    down(0);
  }
}

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
      lane = new Lane(key);
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

  /** Entries newest first, filtered; at most `limit` (default: `size`). */
  list(filter: JournalFilter = {}): JournalEntry[] {
    const out: JournalEntry[] = [];
    const limit = filter.limit ?? this.size;
    if (limit <= 0) return out;
    for (const e of newestFirst(this.lanesFor(filter))) {
      if (passes(e, filter)) out.push(entryOf(e));
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

  /** One entry with its headers, or undefined once it has left the journal. */
  detail(id: number): JournalDetail | undefined {
    const e = this.byId.get(id);
    return e === undefined ? undefined : detailOf(e, this.bodies.get(id));
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
    inspector: e.inspector,
  };
}

/** An entry with its headers; a credential shows its scheme only (`Basic …`), never the secret. */
function detailOf(e: Held, recent: Recent | undefined): JournalDetail {
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
  const head = e.bodyHead ?? (recent === undefined ? null : recentHead(recent));
  const bytes = e.bodyHead !== null ? e.bodyBytes : recent === undefined ? 0 : recentBytes(recent);
  return {
    ...entryOf(e),
    request_headers: request,
    response_headers: response,
    response_body: head === null ? null : head.toString('utf8'),
    response_body_truncated: head !== null && bytes > head.length,
  };
}
