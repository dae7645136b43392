import type { ListName } from '../generators/lists';
import { pageUri } from './uris';

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
}

/** The list's item key: production names the array after the resource, as the registry names the list. */
export type ListKey = ListName;

/** The JSON text around a page's items: `head + items.join(',') + tail` is the whole body. */
export interface EnvelopeParts {
  head: string;
  tail: string;
}

/**
 * The one envelope builder. Keys in production's order; `start` and `end` are strings and a
 * missing neighbour link is the string "null", as production writes them.
 *
 * @param lastSid sid of the page's last item, for the next link's AfterSid
 * @example envelope('calls', window, '/2012-04-24/Accounts/AC1/Calls', 'ID…-CA…').head
 *   // '{"page":0,"num_pages":8,"page_size":50,"total":448,"start":"0","end":"49","uri":"/2012-04-24/Accounts/AC1/Calls",…,"calls":['
 */
export function envelope(key: ListKey, w: EnvelopeWindow, listUri: string, lastSid: string | undefined): EnvelopeParts {
  const fields = {
    page: w.page,
    num_pages: w.numPages,
    page_size: w.pageSize,
    total: w.total,
    start: String(w.start),
    end: String(w.end),
    uri: listUri,
    first_page_uri: pageUri(listUri, 0, w.pageSize),
    previous_page_uri: w.hasPrevious ? pageUri(listUri, w.page - 1, w.pageSize) : 'null',
    next_page_uri: w.hasNext ? pageUri(listUri, w.page + 1, w.pageSize, lastSid) : 'null',
    last_page_uri: pageUri(listUri, w.lastPage, w.pageSize),
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
