import { ApiError, messages, problems, ValidationError } from '../errors';
import { instantAt, queryInt, queryOf } from '../input/fields';
import type { Journal, JournalFilter } from '../journal/journal';
import { type AdminHandler, fleetAsked, scopedAccount } from './context';
import { detailOf, entryOf, type JournalEntry } from './journal-views';
import type { Gathered } from './log-transport';
import { ok } from './reply';

const PARAMETERS = ['account', 'method', 'path', 'status', 'since', 'limit', 'inspector', 'fleet'];

/** The query of `GET /__admin/requests`, validated; a ValidationError naming the parameter otherwise. */
export function journalFilter(rawQuery: string, size: number): JournalFilter {
  const q = queryOf(rawQuery, PARAMETERS);
  const int = (name: string, min: number, max: number) => queryInt(q, name, min, max);
  const filter: JournalFilter = {};
  const account = q.get('account');
  if (account !== null) filter.account = account;
  const method = q.get('method');
  if (method !== null) filter.method = method.toUpperCase();
  const path = q.get('path');
  if (path !== null) filter.path = path;
  const status = int('status', 0, 599);
  if (status !== undefined) filter.status = status;
  // A limit past what the journal holds asks for everything it holds; 0 asks only how many match.
  const limit = int('limit', 0, 1_000_000_000);
  if (limit !== undefined) filter.limit = Math.min(limit, Math.max(1, size));
  const since = q.get('since');
  if (since !== null) filter.sinceMs = instantAt('query.since', since);
  const inspector = q.get('inspector');
  if (inspector !== null && inspector !== 'true' && inspector !== 'false')
    throw new ValidationError('query.inspector', problems.flag(inspector));
  if (inspector === 'true') filter.inspector = true;
  fleetAsked(rawQuery);
  return filter;
}

/** One replica's journal as `GET /__admin/requests` shows it. */
interface JournalView {
  requests: (JournalEntry & { replica?: string })[];
  matched: number;
  size: number;
  held: number;
  seen: number;
}

/** This replica's journal, filtered by a query (its `fleet` aside): what it answers a gather with. */
export function journalView(journal: Journal, rawQuery: string): JournalView {
  const filter = journalFilter(rawQuery, journal.size);
  return {
    requests: journal.list(filter).map(entryOf),
    matched: journal.countMatching(filter),
    size: journal.size,
    held: journal.count,
    seen: journal.seen,
  };
}

/**
 * Every replica's journal in one: entries newest first (by arrival, then replica), each naming
 * its replica, cut to the limit; the counts summed, and each replica's beside them.
 */
function fleetView(gathered: readonly Gathered[], limit: number): JournalView & { replicas: unknown[] } {
  const all: (JournalEntry & { replica: string })[] = [];
  const replicas = gathered.map(({ replica, answer }) => {
    const view = answer as JournalView;
    for (const e of view.requests) all.push({ ...e, replica });
    return { replica, matched: view.matched, size: view.size, held: view.held, seen: view.seen };
  });
  all.sort((a, b) => (a.time === b.time ? (a.replica < b.replica ? -1 : 1) : a.time < b.time ? 1 : -1));
  const sum = (k: 'matched' | 'size' | 'held' | 'seen') => replicas.reduce((n, r) => n + r[k], 0);
  return {
    requests: all.slice(0, limit),
    matched: sum('matched'),
    size: sum('size'),
    held: sum('held'),
    seen: sum('seen'),
    replicas,
  };
}

/**
 * `GET /__admin/requests`: the journal, newest first, filtered; `matched` counts every entry held
 * that passes the filter, whatever the limit (`limit=0` asks for the count alone). With
 * `fleet=true`, every replica's journal (each keeps its own: a read never waits on the network).
 */
export const listRequests: AdminHandler = async (ctx, req) => {
  const { journal } = ctx;
  if (!fleetAsked(req.query)) return ok(journalView(journal, req.query));
  const filter = journalFilter(req.query, Number.MAX_SAFE_INTEGER);
  const gathered = await ctx.fleet.gather('requests', req.query);
  return ok(fleetView(gathered, filter.limit ?? Number.MAX_SAFE_INTEGER));
};

/** `GET /__admin/requests/{id}`: one entry with the headers of the request and of its answer. */
export const getRequest: AdminHandler = (ctx, req) => {
  const id = req.params['id'] ?? '';
  const found = /^[1-9]\d{0,15}$/.test(id) ? ctx.journal.detail(Number(id)) : undefined;
  if (found === undefined) throw new ApiError(404, messages.noJournalEntry(id));
  return ok(detailOf(found));
};

/** `DELETE /__admin/requests[?account=sid]`: the journal emptied, or one account's entries only. */
export const clearRequests: AdminHandler = (ctx, req) => {
  const account = scopedAccount(req.query);
  ctx.journal.clear(account);
  return ok({ status: 'cleared', ...(account === undefined ? {} : { account }) });
};
