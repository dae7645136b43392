import { ApiError, messages, problems, ValidationError } from '../errors';
import type { JournalFilter } from '../harness/journal';
import { instantAt, queryInt, queryOf } from '../input/fields';
import { type AdminHandler, ok, scopedAccount } from './context';

const PARAMETERS = ['account', 'method', 'path', 'status', 'since', 'limit', 'inspector'];

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
  return filter;
}

/**
 * `GET /__admin/requests`: the journal, newest first, filtered; `matched` counts every entry held
 * that passes the filter, whatever the limit (`limit=0` asks for the count alone).
 */
export const listRequests: AdminHandler = (ctx, req) => {
  const { journal } = ctx;
  const filter = journalFilter(req.query, journal.size);
  const requests = journal.list(filter);
  return ok({
    requests,
    matched: journal.countMatching(filter),
    size: journal.size,
    held: journal.count,
    seen: journal.seen,
  });
};

/** `GET /__admin/requests/{id}`: one entry with the headers of the request and of its answer. */
export const getRequest: AdminHandler = (ctx, req) => {
  const id = req.params['id'] ?? '';
  const found = /^[1-9]\d{0,15}$/.test(id) ? ctx.journal.detail(Number(id)) : undefined;
  if (found === undefined) throw new ApiError(404, messages.noJournalEntry(id));
  return ok(found);
};

/** `DELETE /__admin/requests[?account=sid]`: the journal emptied, or one account's entries only. */
export const clearRequests: AdminHandler = (ctx, req) => {
  const account = scopedAccount(req.query);
  ctx.journal.clear(account);
  return ok({ status: 'cleared', ...(account === undefined ? {} : { account }) });
};
