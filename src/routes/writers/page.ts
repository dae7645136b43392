import type { ServerResponse } from 'node:http';
import type { CachedResponse } from '../../cache/render-cache';
import type { ListWire } from '../../format/list-wire';
import type { PageWindow } from '../../query/paging';
import type { WalkPage } from '../../query/walk';
import type { Account } from '../../store/world';
import type { ListSettings } from '../list-settings';
import type { WireFormat } from '../send-page';

/**
 * One item of a page: its table, id and account, and its record (as it was when the order was
 * built), made only when asked: an item in the item cache is never generated.
 */
export interface PageItem<R> {
  record(): R;
  tableId: number;
  id: number;
  accountSid: string;
  /**
   * Made by the seed (not inserted, not arrived with the clock): the same record after a reset
   * and in another process, so its text may be cached and a page thread may make it.
   */
  seeded: boolean;
}

/** The order a page is a window of: its key (one account's list; null over several), length, and the item at a position. */
export interface PageOrder<R> {
  key: string | null;
  length: number;
  item(position: number): PageItem<R>;
}

/**
 * A page worked out, as a writer takes it: the envelope around it, its window of the order, the
 * format, and where it goes. Every way of writing a page reads only this.
 */
export interface PageJob<R> {
  res: ServerResponse;
  format: WireFormat;
  head: string;
  tail: string;
  window: PageWindow;
  order: PageOrder<R>;
  warnings: readonly string[];
  /** Where the built response goes for the response cache, or null. */
  keep: ((response: CachedResponse) => void) | null;
  wire: ListWire<R>;
  settings: ListSettings;
  account: Account;
  /** The page as a walk sees it; null over several accounts. */
  walk: WalkPage | null;
  /** An item's text in the request's format, under its own account. */
  render(item: PageItem<R>): string;
}

/**
 * One way of writing a page: it writes the page and answers true, or declines (false) and the
 * next writer of the list (writers/index.ts) is asked. A new way is a file exporting one of
 * these and a place in that list.
 */
export type PageWriter = <R>(job: PageJob<R>) => boolean | Promise<boolean>;

/** An item's text through the item cache (a seeded item's text is the same until the state changes). */
export function cachedText<R>(job: PageJob<R>, item: PageItem<R>): string {
  return job.settings.cache.item(item.tableId, item.id, () => job.render(item));
}
