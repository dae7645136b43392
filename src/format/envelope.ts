import type { ListName } from '../generators/list-names';
import { pageUri } from './uris';
import { xmlWrapped } from './xml';

/** What the envelope says about a page, as numbers (the query layer's page window has these). */
export interface EnvelopeWindow {
  page: number;
  numPages: number;
  pageSize: number;
  total: number;
  start: number;
  end: number;
  /** The page index `last_page_uri` points at. */
  lastPage: number;
  hasPrevious: boolean;
  hasNext: boolean;
  /** Items on the page. */
  count: number;
}

/** How a list is written in XML: its element, and whether production prints the page on it. */
export interface XmlList {
  element: string;
  /** Only the calls list's converter writes paging attributes; the others write none. */
  paged: boolean;
}

/** The list's item key: production names the array after the resource, as the registry names the list. */
export type ListKey = ListName;

/** The JSON text around a page's items: `head + items.join(',') + tail` is the whole body. */
export interface EnvelopeParts {
  head: string;
  tail: string;
}

/** A page as an envelope builder sees it: the list, the window, its `uri`, and its items' sids. */
export interface EnvelopePage {
  key: ListKey;
  window: EnvelopeWindow;
  uri: string;
  /** The sid of the item at a position of the page (0 the first, `count - 1` the last), for links that name one. */
  sidAt(k: number): string;
  /** The list's XML form, when the page is written in XML. */
  xml?: XmlList;
  /** Parameters a dialect repeats in its links (Twilio's filters), in the order given. */
  params?: readonly (readonly [string, string])[];
  /** The cursor the page was asked with (Twilio's `PageToken`), which its own `uri` repeats. */
  pageToken?: string;
}

/**
 * What writes the text around a page's items in one dialect: the seam a dialect's envelope is
 * registered at (format/envelopes.ts). A new envelope shape is one builder and its registration.
 */
export type EnvelopeBuilder = (page: EnvelopePage) => EnvelopeParts;

/**
 * Production's envelope (the service as documented and the Restcomm dialect): see `envelope`.
 * @example restcommEnvelope({ key: 'calls', window, uri: '/2012-04-24/Accounts/AC1/Calls', sidAt }).head // '{"page":0,"num_pages":8,…,"calls":['
 */
export const restcommEnvelope: EnvelopeBuilder = (p) =>
  envelope(p.key, p.window, p.uri, p.window.hasNext ? p.sidAt(p.window.count - 1) : undefined, p.xml);

/**
 * Restcomm's envelope builder. Keys in production's order; `start` and `end` are strings and a
 * missing neighbour link is the string "null", as production writes them.
 *
 * With `xml`, the same page as production's XML writes it: the list element under
 * `RestcommResponse`; on the calls list the page as attributes (all text, the links as in JSON),
 * where `total` is the page count again, as `CallDetailRecordListConverter` writes
 * `getTotalPages()` there; no separator between items.
 *
 * @param lastSid sid of the page's last item, for the next link's AfterSid
 * @example envelope('calls', window, '/2012-04-24/Accounts/AC1/Calls', 'ID…-CA…').head
 *   // '{"page":0,"num_pages":8,"page_size":50,"total":448,"start":"0","end":"49","uri":"/2012-04-24/Accounts/AC1/Calls",…,"calls":['
 * @example envelope('calls', window, uri, sid, { element: 'Calls', paged: true }).head
 *   // '<RestcommResponse>\n  <Calls page="0" numpages="8" pagesize="50" total="8" start="0" end="49" uri="…" …>'
 */
export function envelope(
  key: ListKey,
  w: EnvelopeWindow,
  listUri: string,
  lastSid: string | undefined,
  xml?: XmlList,
): EnvelopeParts {
  const first = pageUri(listUri, 0, w.pageSize);
  const previous = w.hasPrevious ? pageUri(listUri, w.page - 1, w.pageSize) : 'null';
  const next = w.hasNext ? pageUri(listUri, w.page + 1, w.pageSize, lastSid) : 'null';
  const last = pageUri(listUri, w.lastPage, w.pageSize);
  if (xml !== undefined) {
    const attrs: [string, string][] = !xml.paged
      ? []
      : [
          ['page', String(w.page)],
          ['numpages', String(w.numPages)],
          ['pagesize', String(w.pageSize)],
          ['total', String(w.numPages)],
          ['start', String(w.start)],
          ['end', String(w.end)],
          ['uri', listUri],
          ['firstpageuri', first],
          ['previouspageuri', previous],
          ['nextpageuri', next],
          ['lastpageuri', last],
        ];
    return xmlWrapped(xml.element, attrs, w.count === 0);
  }
  const fields = {
    page: w.page,
    num_pages: w.numPages,
    page_size: w.pageSize,
    total: w.total,
    start: String(w.start),
    end: String(w.end),
    uri: listUri,
    first_page_uri: first,
    previous_page_uri: previous,
    next_page_uri: next,
    last_page_uri: last,
  };
  const json = JSON.stringify(fields);
  return { head: `${json.slice(0, -1)},${JSON.stringify(key)}:[`, tail: ']}' };
}

/**
 * The error body: `{"message": "..."}`, the shape production uses for its SortBy errors.
 * @example errorBody('Page 9 is beyond…') // '{"message":"Page 9 is beyond…"}'
 */
export function errorBody(message: string): string {
  return JSON.stringify({ message });
}
