import { createHash } from 'node:crypto';
import { isoMillis } from '../format/dates';
import type { ListName } from '../generators/lists';
import type { JournaledPage } from '../harness/journal';
import { runSliced } from '../http/slices';
import { queryInt, queryOf } from '../input/fields';
import { parseListQuery } from '../query/list-query';
import { LIST_SPECS } from '../query/lists';
import type { WalkPage } from '../query/walk';
import { STORE_LISTS } from '../store/lists';
import { type Order, readyRange, type Work } from '../store/order';
import type { Account, World } from '../store/world';
import { type AdminHandler, ok } from './context';

/** Lists longer than this get no `missed` count: the report would read every record. */
const MISSED_LIMIT = 200_000;
/** Sids listed at most in a walk's `duplicates` and `missed` (their counts say how many in all). */
const LISTED_SIDS = 1000;
/** Walks in one answer: by default, and at most (`?limit=`). */
const DEFAULT_WALKS = 100;
const MAX_WALKS = 1000;
/** Records looked at between turns of the event loop. */
const STEP = 4096;

/** One client's walk over one list, as the report shows it. */
export interface WalkReport {
  /** Who walked: a digest of the credentials (never the credentials). */
  client: string;
  account: string;
  list: ListName;
  sort: string | null;
  filter: string;
  /** Pages fetched, in sequence, from `first_page` to `last_page`. */
  pages: number;
  first_page: number;
  last_page: number;
  /** Whether the walk reached the last page (its next link was "null"). */
  complete: boolean;
  items_served: number;
  /** Records served more than once in the walk (offset paging over a growing list): the first 1,000. */
  duplicates: string[];
  duplicates_count: number;
  /**
   * Records that existed when the walk began and exist now but were never served, the first
   * 1,000; null for a list too long to check.
   */
  missed: string[] | null;
  missed_count: number | null;
  /** The clock at the first and the last page. */
  started_at: string;
  ended_at: string;
  /** The journal ids of its requests. */
  requests: number[];
}

interface Walk {
  key: string;
  credentials: string;
  query: string;
  pages: { id: number; walk: WalkPage }[];
}

/** A list as it is now, in a walk's order and filter, as `missedOf` reads it. */
interface ListNow {
  order: Order;
  sid: (id: number) => string;
  created: (id: number) => number;
}

/** A list of the account in the order and filter of a walk's query, as it is now. */
function* listNow<K extends ListName>(account: Account, list: K, query: string, zone: string): Work<ListNow> {
  const q = parseListQuery(query, LIST_SPECS[list], undefined, zone);
  const { order, get } = yield* account.tables[list].prepare(q.sort, q.filter);
  const created = STORE_LISTS[list].kind.values.created;
  return { order, sid: (id) => get(id).sid, created: (id) => created(get(id)) };
}

/**
 * The walk's records that existed at its start, exist now, and were never served; in list order,
 * the first LISTED_SIDS of them, and how many. `lists` keeps each list order prepared for one
 * report, so walks of the same list share it. Work in slices.
 */
function* missedOf(
  world: World,
  w: Walk,
  served: Set<number>,
  lists: Map<string, ListNow>,
  zone: string,
): Work<{ sids: string[]; count: number } | null> {
  const first = (w.pages[0] as Walk['pages'][number]).walk;
  const account = world.account(first.account);
  if (account === undefined) return null;
  const table = account.tables[first.list];
  // The account was made again since (a reset keeps tables; a delete and re-create does not).
  if (table.id !== first.table || table.count > MISSED_LIMIT) return null;
  // The walk's order and filter, from its first request, over the list as it is now.
  const key = `${table.id}|${first.list}|${w.query}`;
  let state = lists.get(key);
  if (state === undefined) {
    state = yield* listNow(account, first.list, w.query, zone);
    lists.set(key, state);
  }
  const startSec = Math.floor(first.clockMs / 1000);
  const sids: string[] = [];
  let count = 0;
  const { order } = state;
  for (let p = 0; p < order.length; p++) {
    if (p % STEP === 0) yield* readyRange(order, p, p + STEP);
    const id = order.at(p);
    if (!served.has(id) && state.created(id) <= startSec) {
      if (count++ < LISTED_SIDS) sids.push(state.sid(id));
    }
    if (p % STEP === STEP - 1) yield;
  }
  return { sids, count };
}

/** Which walks a report shows: one account's, and a window of them, oldest first. */
export interface WalkWindow {
  account?: string;
  /** The server's time zone, which the walks' StartTime and EndTime were read in (default UTC). */
  zone?: string;
  offset: number;
  limit: number;
}

/**
 * The walks in the journal: a client's pages of one list (same credentials, account, list,
 * sort and filters) in sequence from where it started; page 0, or a page out of sequence,
 * starts another walk. Only the walks in `window` are reported in full (their duplicates and
 * missed records), and that work is done in slices: a report over 20,000 journaled pages froze
 * the server for 77 s and outgrew a string.
 */
export function* walks(
  world: World,
  pages: readonly JournaledPage[],
  window: WalkWindow = { offset: 0, limit: MAX_WALKS },
): Work<{ walks: WalkReport[]; total: number }> {
  const done: Walk[] = [];
  const open = new Map<string, Walk>();
  for (let n = 0; n < pages.length; n++) {
    const { id, credentials, query, walk } = pages[n] as JournaledPage;
    if (n % STEP === STEP - 1) yield;
    if (window.account !== undefined && walk.account !== window.account) continue;
    const key = [credentials, walk.account, walk.list, walk.sort ?? '', walk.filter].join('\u0000');
    const current = open.get(key);
    const last = current?.pages[current.pages.length - 1]?.walk;
    if (current !== undefined && last !== undefined && walk.page === last.page + 1) {
      current.pages.push({ id, walk });
      continue;
    }
    const fresh: Walk = { key, credentials, query, pages: [{ id, walk }] };
    open.set(key, fresh);
    done.push(fresh);
  }
  const lists = new Map<string, ListNow>();
  const reports: WalkReport[] = [];
  for (const w of done.slice(window.offset, window.offset + window.limit)) {
    reports.push(yield* report(world, w, lists, window.zone ?? 'UTC'));
  }
  return { walks: reports, total: done.length };
}

/** One walk in full. */
function* report(world: World, w: Walk, lists: Map<string, ListNow>, zone: string): Work<WalkReport> {
  const first = (w.pages[0] as Walk['pages'][number]).walk;
  const last = (w.pages[w.pages.length - 1] as Walk['pages'][number]).walk;
  const seen = new Map<number, number>();
  for (const { walk } of w.pages) for (const id of walk.ids) seen.set(id, (seen.get(id) ?? 0) + 1);
  yield;
  const account = world.account(first.account);
  const table = account?.tables[first.list];
  const sidOf = (id: number) =>
    (table !== undefined && table.id === first.table ? table.get(id)?.sid : undefined) ?? `#${id}`;
  let served = 0;
  for (const k of seen.values()) served += k;
  const repeated = [...seen].filter(([, k]) => k > 1);
  const missed = yield* missedOf(world, w, new Set(seen.keys()), lists, zone);
  return {
    client: createHash('sha256').update(w.credentials).digest('hex').slice(0, 12),
    account: first.account,
    list: first.list,
    sort: first.sort,
    filter: first.filter,
    pages: w.pages.length,
    first_page: first.page,
    last_page: last.page,
    complete: last.last,
    items_served: served,
    duplicates: repeated.slice(0, LISTED_SIDS).map(([id]) => sidOf(id)),
    duplicates_count: repeated.length,
    missed: missed?.sids ?? null,
    missed_count: missed?.count ?? null,
    started_at: isoMillis(first.clockMs),
    ended_at: isoMillis(last.clockMs),
    requests: w.pages.map((p) => p.id),
  };
}

/**
 * `GET /__admin/walks[?account=AC…][&offset=N][&limit=N]`: each client's walks over the lists,
 * from the journal, oldest first; 100 a page by default, 1,000 at most, and `total` says how
 * many there are.
 */
export const listWalks: AdminHandler = async (ctx, req) => {
  const q = queryOf(req.query, ['account', 'offset', 'limit']);
  const window: WalkWindow = {
    offset: queryInt(q, 'offset', 0, 1_000_000_000) ?? 0,
    limit: queryInt(q, 'limit', 1, MAX_WALKS) ?? DEFAULT_WALKS,
    zone: ctx.serverZone,
  };
  const account = q.get('account');
  if (account !== null) window.account = account;
  const { walks: shown, total } = await runSliced(walks(ctx.world, ctx.journal.walkPages(), window));
  return ok({ walks: shown, total, offset: window.offset, limit: window.limit });
};
