import type { Request, RequestHandler } from 'express';
import { authedAccount } from '../auth';
import { responseKey, type RenderCache } from '../cache/render-cache';
import { noteWarnings } from '../harness/journal';
import { ApiError, messages } from '../errors';
import { envelope, type ListKey } from '../format/envelope';
import { parseListQuery } from '../query/list-query';
import { pageWindow, type PagingProfile } from '../query/paging';
import type { Filter } from '../query/filters';
import type { SortSpec } from '../query/sort';
import type { Order } from '../store/order';
import type { AccountStore, World } from '../store/world';
import { sendBuilt, streamPage, STREAM_THRESHOLD } from './send-page';

/** What the list routes need from the app's settings. */
export interface ListSettings {
  paging: PagingProfile;
  maxPageSize: number | null;
  publicUrl: string;
  cache: RenderCache;
  /** Turn every warning into a 400. */
  strict: boolean;
}

/** One list resource (calls or recordings), as the generic handler sees it. */
export interface ListResource<A extends string, R extends { sid: string }> {
  key: ListKey;
  sortAttributes: readonly A[];
  filterNames: readonly string[];
  /** The filter the parameters describe (400 on a bad value), or null for none. */
  filter(values: ReadonlyMap<string, string>): Filter<R> | null;
  table(account: AccountStore): {
    id: number;
    count: number;
    get(i: number): R;
    order(sort: SortSpec<A> | null): Order;
    filteredOrder(sort: SortSpec<A> | null, filter: Filter<R>): Order;
  };
  listUri(accountSid: string): string;
  render(record: R, accountSid: string, settings: ListSettings): string;
}

/** The raw query string, as sent: parameter names are case-sensitive, so no parser touches it. */
export function rawQuery(req: Request): string {
  const q = req.originalUrl.indexOf('?');
  return q < 0 ? '' : req.originalUrl.slice(q + 1);
}

/**
 * Header values must be visible ASCII; warnings quote what the client sent, so anything else is
 * escaped rather than allowed to break the response.
 */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Production answers XML on a path without `.json` unless Accept asks for JSON; we answer 406 there. */
export function requireJson(req: Request): void {
  if (!req.path.endsWith('.json') && !(req.get('accept') ?? '').includes('json')) {
    throw new ApiError(406, messages.notAcceptable);
  }
}

/**
 * GET of a paged list: content negotiation, parameters, page window, envelope, items.
 * Runs after `requireAccount`.
 */
export function listHandler<A extends string, R extends { sid: string }>(
  resource: ListResource<A, R>,
  world: World,
  settings: ListSettings,
): RequestHandler {
  return async (req, res) => {
    requireJson(req);
    const query = parseListQuery(rawQuery(req), {
      sortAttributes: resource.sortAttributes,
      maxPageSize: settings.maxPageSize ?? undefined,
      filterNames: resource.filterNames,
    });
    const filter = resource.filter(query.filters);
    const account = authedAccount(res);
    settings.cache.sync(world.version);
    const table = resource.table(account);
    // total, num_pages and the pages count the filtered list, as production's count query does.
    const order = filter === null ? table.order(query.sort) : table.filteredOrder(query.sort, filter);
    const window = pageWindow(settings.paging, order.length, query.page, query.pageSize);
    if ('beyond' in window) throw new ApiError(400, messages.pageBeyondLast(query.page, window.beyond));
    const sid = account.profile.sid;
    const lastSid = window.hasNext ? table.get(order.at(window.offset + window.count - 1)).sid : undefined;
    const { head, tail } = envelope(resource.key, window, resource.listUri(sid), lastSid);
    const warnings = query.warnings.map(headerSafe);
    // --strict: whatever production would ignore or read differently is refused instead.
    if (settings.strict && warnings.length > 0) throw new ApiError(400, warnings[0] as string);
    for (const w of warnings) res.append('X-Emulator-Warning', w);
    noteWarnings(res, warnings);
    const render = (index: number) => resource.render(table.get(index), sid, settings);
    if (window.count > STREAM_THRESHOLD) {
      // A huge page would flush the caches for one reader: it is rendered and streamed as is.
      await streamPage(res, head, tail, window.count, (k) => render(order.at(window.offset + k)));
      return;
    }
    const { cache } = settings;
    const items: Buffer[] = new Array<Buffer>(window.count);
    for (let k = 0; k < window.count; k++) {
      const index = order.at(window.offset + k);
      items[k] = cache.item(table.id, index, () => render(index));
    }
    const key = responseKey(req);
    sendBuilt(res, head, tail, items, warnings, key === null ? undefined : (r) => cache.responses.set(key, r, r.body.length + key.length));
  };
}
