import { createHash } from 'node:crypto';
import { isoMillis } from '../format/dates';
import type { JournaledPage } from '../harness/journal';
import { parseListQuery } from '../query/list-query';
import { CALL_LIST, RECORDING_LIST } from '../query/lists';
import type { WalkPage } from '../query/walk';
import { finish } from '../store/order';
import type { World } from '../store/world';
import { type AdminHandler, ok } from './context';

/** Lists longer than this get no `missed` count: the report would read every record. */
const MISSED_LIMIT = 200_000;

/** One client's walk over one list, as the report shows it. */
export interface WalkReport {
  /** Who walked: a digest of the credentials (never the credentials). */
  client: string;
  account: string;
  list: 'calls' | 'recordings';
  sort: string | null;
  filter: string;
  /** Pages fetched, in sequence, from `first_page` to `last_page`. */
  pages: number;
  first_page: number;
  last_page: number;
  /** Whether the walk reached the last page (its next link was "null"). */
  complete: boolean;
  items_served: number;
  /** Records served more than once in the walk (offset paging over a growing list). */
  duplicates: string[];
  /** Records that existed when the walk began and exist now but were never served; null for a list too long to check. */
  missed: string[] | null;
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

/** The walk's records that existed at its start, exist now, and were never served; in list order. */
function missedOf(world: World, w: Walk, served: Set<number>): string[] | null {
  const first = (w.pages[0] as Walk['pages'][number]).walk;
  const account = world.account(first.account);
  if (account === undefined) return null;
  const table = first.list === 'calls' ? account.calls : account.recordings;
  // The account was made again since (a reset keeps tables; a delete and re-create does not).
  if (table.id !== first.table || table.count > MISSED_LIMIT) return null;
  // The walk's order and filter, from its first request, over the list as it is now.
  let state: {
    length: number;
    at: (p: number) => number;
    sid: (id: number) => string;
    created: (id: number) => number;
  };
  if (first.list === 'calls') {
    const q = parseListQuery(w.query, CALL_LIST);
    const { order, get } = finish(account.calls.prepare(q.sort, q.filter));
    state = { length: order.length, at: order.at, sid: (id) => get(id).sid, created: (id) => get(id).startSec };
  } else {
    const q = parseListQuery(w.query, RECORDING_LIST);
    const { order, get } = finish(account.recordings.prepare(q.sort, q.filter));
    state = { length: order.length, at: order.at, sid: (id) => get(id).sid, created: (id) => get(id).createdSec };
  }
  const startSec = Math.floor(first.clockMs / 1000);
  const missed: string[] = [];
  for (let p = 0; p < state.length; p++) {
    const id = state.at(p);
    if (!served.has(id) && state.created(id) <= startSec) missed.push(state.sid(id));
  }
  return missed;
}

/**
 * The walks in the journal: a client's pages of one list (same credentials, account, list,
 * sort and filters) in sequence from where it started; page 0, or a page out of sequence,
 * starts another walk.
 */
export function walks(world: World, pages: readonly JournaledPage[]): WalkReport[] {
  const done: Walk[] = [];
  const open = new Map<string, Walk>();
  for (const { id, credentials, query, walk } of pages) {
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
  return done.map((w) => {
    const first = (w.pages[0] as Walk['pages'][number]).walk;
    const last = (w.pages[w.pages.length - 1] as Walk['pages'][number]).walk;
    const seen = new Map<number, number>();
    for (const { walk } of w.pages) for (const id of walk.ids) seen.set(id, (seen.get(id) ?? 0) + 1);
    const account = world.account(first.account);
    const table = account === undefined ? undefined : first.list === 'calls' ? account.calls : account.recordings;
    const sidOf = (id: number) =>
      (table !== undefined && table.id === first.table ? table.get(id)?.sid : undefined) ?? `#${id}`;
    const served = [...seen.values()].reduce((n, k) => n + k, 0);
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
      duplicates: [...seen].filter(([, k]) => k > 1).map(([id]) => sidOf(id)),
      missed: missedOf(world, w, new Set(seen.keys())),
      started_at: isoMillis(first.clockMs),
      ended_at: isoMillis(last.clockMs),
      requests: w.pages.map((p) => p.id),
    };
  });
}

/** `GET /__admin/walks[?account=AC…]`: each client's walks over the lists, from the journal. */
export const listWalks: AdminHandler = (ctx, req) => {
  const account = new URLSearchParams(req.query).get('account');
  const all = walks(ctx.world, ctx.journal.walkPages());
  return ok({ walks: account === null ? all : all.filter((w) => w.account === account) });
};
