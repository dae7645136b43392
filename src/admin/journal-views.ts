import { JOURNAL_TEXT_CHARS, type JournalHeld, type JournalRecord } from '../journal/journal';

/**
 * The journal as the admin API shows it (`GET /__admin/requests`, `…/requests/{id}`): the
 * journal holds entries, these are their JSON views.
 */

/** One API request as the admin API shows it: the journal's record (journal.ts), with its id and time. */
export interface JournalEntry
  extends Pick<JournalRecord, 'method' | 'path' | 'query' | 'account' | 'status' | 'duration_ms' | 'fault'> {
  id: number;
  /** Wall-clock time the request arrived, ISO 8601 (the journal is about when, not data). */
  time: string;
  warnings: string[];
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

const NO_HEADERS: readonly string[] = Object.freeze([]);
const NO_RESPONSE_HEADERS: Readonly<Record<string, unknown>> | readonly string[] = Object.freeze({});
/** Headers that carry a credential: the detail shows their scheme only. */
const secret = (name: string) => /^(authorization|cookie|proxy-authorization)$/i.test(name);
/** A header's value, cut as the journal cuts its text. */
const cut = (text: string) => (text.length > JOURNAL_TEXT_CHARS ? text.slice(0, JOURNAL_TEXT_CHARS) : text);

/** An entry as the admin API shows it, keys in the documented order. */
export function entryOf(e: JournalHeld): JournalEntry {
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
export function detailOf(found: { entry: JournalHeld; bodyHead: Buffer | null; bodyBytes: number }): JournalDetail {
  const e = found.entry;
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
  const head = found.bodyHead;
  const bytes = found.bodyBytes;
  return {
    ...entryOf(e),
    request_headers: request,
    response_headers: response,
    response_body: head === null ? null : head.toString('utf8'),
    response_body_truncated: head !== null && bytes > head.length,
  };
}
