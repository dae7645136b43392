import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { authedAccount } from '../auth';
import { ApiError, messages } from '../errors';
import { ENVELOPES } from '../format/envelopes';
import type { ListWire } from '../format/list-wire';
import type { Dialect } from '../format/uris';
import { xmlElement } from '../format/xml';
import type { ListName } from '../generators/list-names';
import { exchangeOf, headerSafe, urlPath } from '../http/exchange';
import { type BuildLabel, runSliced } from '../http/slices';
import { type ListQuery, parseListQuery } from '../query/list-query';
import type { ListSpec } from '../query/list-specs';
import { type PageWindow, pageWindow } from '../query/paging';
import type { WalkPage } from '../query/walk';
import { idOf, mergeParts, partOf } from '../store/merged-order';
import { type Order, readyRange } from '../store/order';
import { isSeededId, markRead } from '../store/overlay';
import type { RecordFilter, StoreSort, TableState, TableView } from '../store/table-contracts';
import type { Account } from '../store/world';
import type { ListCaches } from './list-caches';
import type { ListSettings } from './list-settings';
import type { WireFormat } from './send-page';
import { writePage } from './writers';
import type { PageItem, PageOrder } from './writers/page';

/** One list resource: its name, its wire shape, its parameters, its table. */
export interface ListResource<C extends string, R extends { sid: string }> {
  name: ListName;
  wire: ListWire<R>;
  query: ListSpec<C, R>;
  table(account: Account): TableView<R, C>;
}

/** A list resource, its types read off its parts. */
export function listResource<C extends string, R extends { sid: string }>(
  name: ListName,
  wire: ListWire<R>,
  query: ListSpec<C, R>,
  table: (account: Account) => TableView<R, C>,
): ListResource<C, R> {
  return { name, wire, query, table };
}

/** Positions of a page readied before it is written: a streamed page's rest is placed as written. */
const READY_AHEAD = 100_000;

/** One page of a list, worked out: what to send, and the warnings the request earned. */
interface Page<R> {
  window: PageWindow;
  head: string;
  tail: string;
  warnings: string[];
  /** The page as a walk sees it; null for a list over several accounts, which walks do not follow. */
  walk: WalkPage | null;
  order: PageOrder<R>;
}

/** Whether an Accept header admits `application/xml`, as Jersey matches it against `@Produces`. */
function acceptsXml(accept: string): boolean {
  return accept.split(',').some((range) => {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => /^q\s*=/.test(p));
    if (q !== undefined && !(Number(q.replace(/^q\s*=\s*/, '')) > 0)) return false;
    return type === '*/*' || type === 'application/*' || type === 'application/xml';
  });
}

/**
 * The format a request gets. A `.json` path is JSON whatever the Accept (production's
 * `AcceptFilter` rewrites it), and so is an Accept containing `json` anywhere
 * (`retrieveMediaType` looks for the substring). Otherwise the service as specified answers 406,
 * and the Restcomm dialect answers production's XML where Accept is absent (`AcceptFilter`
 * supplies `application/xml`) or admits it, and 406 where it does not (Jersey's `@Produces`).
 */
export function negotiate(req: IncomingMessage, dialect: Dialect): WireFormat {
  if (urlPath(req.url ?? '').endsWith('.json')) return 'json';
  const accept = req.headers.accept;
  if ((accept ?? '').includes('json')) return 'json';
  if (dialect.name === 'restcomm' && (accept === undefined || acceptsXml(accept))) return 'xml';
  throw new ApiError(406, dialect.name === 'restcomm' ? messages.notAcceptableRestcomm : messages.notAcceptable);
}

/** One item of a page in the request's format: as the list writes it, or its XML element inside the list. */
export function itemText<R>(
  wire: ListWire<R>,
  format: WireFormat,
  record: R,
  accountSid: string,
  fileBase: string,
): string {
  return format === 'xml'
    ? xmlElement(wire.xmlItem(record, accountSid, fileBase), 2)
    : wire.item(record, accountSid, fileBase);
}

/**
 * What an order's build says it is for, in `GET /__admin/builds`.
 * @example buildLabel('calls', 'AC…', 'from:asc', null) // { about: { account_sid, list: 'calls', sort: 'from:asc', filter: '' }, … }
 */
function buildLabel(list: ListName, accountSid: string, sort: string, filter: { key: string } | null): BuildLabel {
  return { accountSid, about: { account_sid: accountSid, list, sort, filter: filter?.key ?? '' } };
}

/**
 * The order of a list over an account and its sub-accounts (`SubAccounts=true`), each account's
 * order built as a list of its own is, then merged; cached until any of the tables changes.
 */
async function familyOrder<C extends string, R extends { sid: string }>(
  resource: ListResource<C, R>,
  family: readonly Account[],
  sort: StoreSort<C> | null,
  filter: RecordFilter<R> | null,
  caches: ListCaches,
): Promise<{ order: Order; parts: { state: TableState<R>; tableId: number; accountSid: string }[] }> {
  const tables = family.map((a) => resource.table(a));
  const sortKey = sort === null ? 'default' : `${sort.column}:${sort.direction}`;
  const stamp = () => tables.map((t) => `${t.id}.${t.writes}`).join(',');
  const built = stamp();
  const states: TableState<R>[] = [];
  for (const [i, table] of tables.entries()) {
    const key = `${table.id}|${table.writes}|${sortKey}|${filter?.key ?? ''}`;
    const label = buildLabel(resource.name, (family[i] as Account).profile.sid, sortKey, filter);
    states.push((await caches.orders.run(key, () => table.prepare(sort, filter), label)) as TableState<R>);
  }
  const parts = states.map((state, i) => ({
    state,
    tableId: (tables[i] as TableView<R, C>).id,
    accountSid: (family[i] as Account).profile.sid,
  }));
  const key = `${built}|${sortKey}|${filter?.key ?? ''}`;
  let order = caches.mergedOrder(key);
  if (order === undefined) {
    const keyed = states.map((state, i) => ({ state, key: (tables[i] as TableView<R, C>).recordKey(sort) }));
    order = await caches.merges.run(key, () => mergeParts(keyed, sort));
    // Kept only if no table changed since its states were read (it holds for those).
    if (stamp() === built) caches.keepMerged(key, order);
  }
  return { order, parts };
}

/** Parameters, order and page window of a list request; a 400 for what production cannot serve. */
async function listPage<C extends string, R extends { sid: string }>(
  resource: ListResource<C, R>,
  settings: ListSettings,
  account: Account,
  descendants: (account: Account) => Account[],
  rawQuery: string,
  mount: string,
  format: WireFormat,
): Promise<Page<R>> {
  const query = parseListQuery(rawQuery, resource.query, settings.maxPageSize ?? undefined, settings.serverZone);
  // SubAccounts=true: the account's records and its sub-accounts' (and theirs), as production's
  // `account_sid IN (…)` query. Without sub-accounts that is the account's own list.
  const family = query.subAccounts ? [account, ...descendants(account)] : [account];
  const sort = query.sort === null ? 'default' : `${query.sort.column}:${query.sort.direction}`;
  let order: Order;
  let item: (ref: number) => PageItem<R>;
  let tableId: number | null = null;
  let orderKey: string | null = null;
  if (family.length === 1) {
    const table = resource.table(account);
    // total, num_pages and the pages count the filtered list, as production's count query does.
    // An order not built yet (ten million calls by From: seconds) is built in slices, once for
    // every request that wants it meanwhile.
    const key = `${table.id}|${table.writes}|${sort}|${query.filter?.key ?? ''}`;
    const label = buildLabel(resource.name, account.profile.sid, sort, query.filter);
    const state = (await settings.caches.orders.run(
      key,
      () => table.prepare(query.sort, query.filter),
      label,
    )) as TableState<R>;
    order = state.order;
    tableId = table.id;
    orderKey = key;
    const accountSid = account.profile.sid;
    item = (id) => ({ record: () => state.get(id), tableId: table.id, id, accountSid, seeded: isSeededId(id) });
  } else {
    const merged = await familyOrder(resource, family, query.sort, query.filter, settings.caches);
    order = merged.order;
    item = (ref) => {
      const part = merged.parts[partOf(ref)] as (typeof merged.parts)[number];
      const id = idOf(ref);
      return {
        record: () => part.state.get(id),
        tableId: part.tableId,
        id,
        accountSid: part.accountSid,
        seeded: isSeededId(id),
      };
    };
  }
  const window = pageWindow(settings.paging, order.length, query.page, query.pageSize);
  if ('beyond' in window) throw new ApiError(400, messages.pageBeyondLast(query.page, window.beyond));
  // An order placed on demand (years of traffic's recordings) places this page, and the items
  // either side the links name, in slices; a streamed page places the rest as it is written.
  const { offset, count } = window;
  await runSliced(readyRange(order, offset - 1, offset + Math.min(count, READY_AHEAD) + 1));
  await runSliced(readyRange(order, offset + count - 1, offset + count));
  const sidAt = (position: number) => item(order.at(position)).record().sid;
  // Production ignores AfterSid. The previous page's next link carries the sid of the item just
  // before this page: normal use, said nothing of. Any other sid is a client relying on it.
  const warnings = query.warnings.map(headerSafe);
  if (query.afterSid !== undefined) {
    const follows = window.offset > 0 && window.offset <= order.length ? sidAt(window.offset - 1) : undefined;
    if (query.afterSid !== follows) warnings.push(headerSafe(messages.afterSidOther(query.afterSid, follows)));
  }
  const { head, tail } = ENVELOPES[settings.dialect.name]({
    key: resource.wire.key,
    window,
    uri: resource.wire.uri(account.profile.sid, { dialect: settings.dialect, mount }),
    sidAt: (k) => sidAt(window.offset + k),
    ...(format === 'xml' ? { xml: resource.wire.xml } : {}),
  });
  return {
    window,
    head,
    tail,
    warnings,
    walk: tableId === null ? null : walkPage(resource.name, account, tableId, order, window, query, sort),
    order: { key: orderKey, length: order.length, item: (position) => item(order.at(position)) },
  };
}

/** The page as a walk sees it: ids only, so that noting it generates nothing. */
function walkPage(
  list: ListName,
  account: Account,
  tableId: number,
  order: Order,
  window: PageWindow,
  query: ListQuery<string, unknown>,
  sort: string,
): WalkPage {
  const ids = new Uint32Array(window.count);
  for (let k = 0; k < window.count; k++) ids[k] = order.at(window.offset + k);
  return {
    table: tableId,
    list,
    account: account.profile.sid,
    sort: query.sort === null ? null : sort,
    filter: query.filter?.key ?? '',
    page: query.page,
    pageSize: query.pageSize,
    ids,
    total: order.length,
    last: !window.hasNext,
    clockMs: account.context.nowMs,
    seq: markRead(account.context.nowMs).seq,
  };
}

/**
 * GET of a paged list under one mount prefix: content negotiation, the page, then its items,
 * built or streamed. Runs after `requireAccount`.
 */
export function listHandler<C extends string, R extends { sid: string }>(
  resource: ListResource<C, R>,
  settings: ListSettings,
  mount: string,
  descendants: (account: Account) => Account[],
): RequestHandler {
  return (req, res) => serveList(resource, settings, mount, descendants, req, res, authedAccount(res));
}

/**
 * A list page for an account already logged in and allowed, on node's request and response
 * alone: what the express route runs, and what the list lane (list-lane.ts) runs without it.
 */
export async function serveList<C extends string, R extends { sid: string }>(
  resource: ListResource<C, R>,
  settings: ListSettings,
  mount: string,
  descendants: (account: Account) => Account[],
  req: IncomingMessage,
  res: ServerResponse,
  account: Account,
): Promise<void> {
  // 1. Negotiate: the format the request gets, or a 406.
  const format = negotiate(req, settings.dialect);
  const exchange = exchangeOf(req);
  // 2. Build or find the order, and 3. take the page: its window, envelope and warnings.
  const page = await listPage(resource, settings, account, descendants, exchange.query, mount, format);
  // --strict: whatever production would ignore or read differently is refused instead.
  const [first] = page.warnings;
  if (settings.strict && first !== undefined) throw new ApiError(400, first);
  for (const w of page.warnings) res.appendHeader('X-Emulator-Warning', w);
  exchange.warnings = page.warnings;
  exchange.walk = page.walk;
  // 4. Write it, with the first writer that takes it (writers/index.ts). Each record is written
  // under its own account (its sid and uri), as production stores them.
  await writePage({
    ...page,
    res,
    format,
    keep: exchange.keep,
    wire: resource.wire,
    settings,
    account,
    render: ({ record, accountSid }) => itemText(resource.wire, format, record(), accountSid, settings.fileBase),
  });
}
