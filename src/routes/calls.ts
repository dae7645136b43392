import type { Express } from 'express';
import { requireAccount } from '../auth';
import { callJson } from '../format/call';
import { callsListUri, routes } from '../format/uris';
import type { CallRecord } from '../generators/call';
import { CALL_SORT_ATTRIBUTES, type CallSortAttribute } from '../query/sort';
import type { World } from '../store/world';
import { CALL_FILTERS, callFilter } from '../query/filters';
import { listHandler, type ListResource, type ListSettings } from './list';
import { methodNotAllowed } from './error-handler';

const calls: ListResource<CallSortAttribute, CallRecord> = {
  key: 'calls',
  sortAttributes: CALL_SORT_ATTRIBUTES,
  filterNames: CALL_FILTERS,
  filter: callFilter,
  table: (account) => account.calls,
  listUri: callsListUri,
  render: (call, accountSid) => callJson(call, accountSid),
};

/** `GET /call/2012-04-24/Accounts/{AccountSid}/Calls.json` (and without `.json`, by Accept). */
export function mountCalls(app: Express, world: World, settings: ListSettings): void {
  app.get(routes.calls, ...requireAccount(world), listHandler(calls, world, settings));
  app.all(routes.calls, methodNotAllowed('GET, HEAD'));
}
