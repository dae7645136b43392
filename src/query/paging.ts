import type { EnvelopeWindow } from '../format/envelope';

/** Which reading of the paging fields to follow (see docs/endpoints.md, "Paging"). */
export type PagingProfile = 'production' | 'documented';

/** Everything about one page: what the envelope says, and which items it holds. */
export interface PageWindow extends EnvelopeWindow {
  /** Position of the page's first item in the whole list; also the `start` field. */
  offset: number;
  /** Items on this page. */
  count: number;
}

/**
 * The page window, or `{ beyond }` with the last valid page when `page` is past it.
 *
 * Production (Restcomm's list converters, integer arithmetic): `num_pages = floor(total/ps)` is
 * the index of the last page, so when total is a multiple of ps that last page is empty; `end`
 * is inclusive on every page but the last, where it is exclusive (it equals total).
 * Documented: `num_pages = ceil(total/ps)` (at least 1), last page `num_pages-1`, `end` inclusive.
 *
 * @example pageWindow('production', 448, 8, 50) // { numPages: 8, start: 400, end: 448, count: 48, hasNext: false, … }
 * @example pageWindow('production', 0, 1, 50) // { beyond: 0 }
 */
export function pageWindow(
  profile: PagingProfile,
  total: number,
  page: number,
  pageSize: number,
): PageWindow | { beyond: number } {
  const numPages = profile === 'production' ? Math.floor(total / pageSize) : Math.max(1, Math.ceil(total / pageSize));
  const lastPage = profile === 'production' ? numPages : numPages - 1;
  if (page > lastPage) return { beyond: lastPage };
  const offset = page * pageSize;
  const count = Math.max(0, Math.min(pageSize, total - offset));
  let end: number;
  if (profile === 'production') {
    end = page === lastPage ? offset + count : offset + pageSize - 1;
  } else {
    end = count === 0 ? offset : offset + count - 1;
  }
  return {
    page,
    pageSize,
    total,
    numPages,
    lastPage,
    offset,
    count,
    start: offset,
    end,
    hasPrevious: page > 0,
    hasNext: page < lastPage,
  };
}

/**
 * The window of a page that a cursor placed (Twilio's keyset paging): `count` items from
 * `offset` of `total`; `page` is the client's own number, printed back. Neighbours exist where
 * items lie before and after; `end` is inclusive (an empty page ends where it starts).
 * @example keysetWindow(1, 50, 448, 50, 50) // { page: 1, start: 50, end: 99, hasPrevious: true, hasNext: true, … }
 */
export function keysetWindow(page: number, pageSize: number, total: number, offset: number, count: number): PageWindow {
  const numPages = Math.max(1, Math.ceil(total / pageSize));
  return {
    page,
    pageSize,
    total,
    numPages,
    lastPage: numPages - 1,
    offset,
    count,
    start: offset,
    end: count === 0 ? offset : offset + count - 1,
    hasPrevious: offset > 0,
    hasNext: offset + count < total,
  };
}
