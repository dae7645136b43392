import { callJson } from '../format/call';
import { callsListUri } from '../format/uris';
import type { CallRecord } from '../generators/call';
import { CALL_FILTERS, callFilter } from '../query/filters';
import { CALL_SORT } from '../query/sort';
import type { ListResource } from './list';

type CallColumn = (typeof CALL_SORT)[keyof typeof CALL_SORT];

/** `GET /call/2012-04-24/Accounts/{AccountSid}/Calls.json` (and without `.json`, by Accept). */
export const calls: ListResource<CallColumn, CallRecord> = {
  key: 'calls',
  sort: CALL_SORT,
  filterNames: CALL_FILTERS,
  filter: callFilter,
  table: (account) => account.calls,
  listUri: callsListUri,
  render: (call, accountSid) => callJson(call, accountSid),
};
