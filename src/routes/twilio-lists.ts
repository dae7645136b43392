import type { IncomingMessage, ServerResponse } from 'node:http';
import { laneAccount } from '../auth';
import { ApiError, messages } from '../errors';
import { ENVELOPES, ERROR_BODIES } from '../format/envelopes';
import type { ListWire } from '../format/list-wire';
import { twilioCallJson } from '../format/twilio/call';
import { twilioSid } from '../format/twilio/fields';
import { twilioRecordingJson } from '../format/twilio/recording';
import { twilioListUri } from '../format/uris';
import type { CallRecord } from '../generators/call-record';
import type { ListName } from '../generators/list-names';
import type { RecordingRecord } from '../generators/recording';
import { writeError } from '../http/error-handler';
import { exchangeOf, urlPath } from '../http/exchange';
import { runSliced } from '../http/slices';
import type { FilterableCall, FilterableRecording, FilterDefs } from '../query/filters';
import { keysetWindow } from '../query/paging';
import { TWILIO_CALL_FILTERS, TWILIO_RECORDING_FILTERS } from '../query/twilio-filters';
import { parseTwilioQuery, TWILIO_BAD_TOKEN, type TwilioCursor } from '../query/twilio-query';
import { type Order, readyRange } from '../store/order';
import { isSeededId, markRead } from '../store/overlay';
import { sortComparator } from '../store/sort-keys';
import type { RecordKey, TableState, TableView } from '../store/table-contracts';
import { findTwilioRecord, seededTwilioRecord } from '../store/twilio-sids';
import type { Account, World } from '../store/world';
import type { Lane } from './list-lane';
import type { ListSettings } from './list-settings';
import { writePage } from './writers';

/** One of Twilio's account lists: its name, sid prefix, filters, table and item writer. */
export interface TwilioList<R extends { sid: string }, F> {
  name: ListName;
  /** The two letters its sids start with, which its cursors carry. */
  sidPrefix: string;
  filters: FilterDefs<F>;
  table(account: Account): TableView<R, string, F>;
  wire: ListWire<R>;
}

/** The default order's comparison (newest first, ties by sid), on record keys. */
const NEWEST_FIRST = sortComparator<RecordKey>(null, { value: (k) => k.v, created: (k) => k.c, sid: (k) => k.sid });

/** The first position of an order at which `after` holds, given it holds from some position on. */
function firstWhere(order: Order, after: (position: number) => boolean): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (after(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Where a page starts and how many it holds, from its cursor: a keyset on the order, not an
 * offset. `PA<sid>` is the page of records after that record's place, `PB<sid>` the page before
 * it, found by bisection on the order's keys (the record itself need not still be in the list:
 * a deleted seeded record keeps its place). Records arriving at the head therefore shift nothing.
 */
function cursorWindow<R extends { sid: string }, F>(
  list: TwilioList<R, F>,
  account: Account,
  state: TableState<R>,
  cursor: TwilioCursor | null,
  pageSize: number,
): { offset: number; count: number } {
  const { order } = state;
  if (cursor === null) return { offset: 0, count: Math.min(pageSize, order.length) };
  const table = list.table(account);
  const id = findTwilioRecord(account, list.name, cursor.sid);
  const record = id === undefined ? seededTwilioRecord(table, account, list.name, cursor.sid) : table.get(id);
  if (record === undefined) {
    throw new ApiError(
      400,
      messages.twilioPageToken(`P${cursor.before ? 'B' : 'A'}${cursor.sid}`, list.sidPrefix),
      {},
      TWILIO_BAD_TOKEN,
    );
  }
  const keyOf = table.recordKey(null);
  const at = keyOf(record);
  const compare = (p: number) => NEWEST_FIRST(keyOf(state.get(order.at(p))), at);
  if (!cursor.before) {
    const offset = firstWhere(order, (p) => compare(p) > 0);
    return { offset, count: Math.min(pageSize, order.length - offset) };
  }
  const end = firstWhere(order, (p) => compare(p) >= 0);
  const offset = Math.max(0, end - pageSize);
  return { offset, count: end - offset };
}

/**
 * A page of one of Twilio's lists for an account already logged in: its query read, the
 * default order (newest first) filtered and built once for every request that wants it, the
 * cursor's window, Twilio's envelope, and the items written by the writers every list uses.
 */
export async function serveTwilioList<R extends { sid: string }, F>(
  list: TwilioList<R, F>,
  settings: ListSettings,
  req: IncomingMessage,
  res: ServerResponse,
  account: Account,
  path: string,
): Promise<void> {
  const exchange = exchangeOf(req);
  const query = parseTwilioQuery(exchange.query, list.filters, list.sidPrefix);
  const table = list.table(account);
  const key = `${table.id}|${table.writes}|default|${query.filter?.key ?? ''}`;
  const label = {
    accountSid: account.profile.sid,
    about: { account_sid: account.profile.sid, list: list.name, sort: 'default', filter: query.filter?.key ?? '' },
  };
  const state = (await settings.caches.orders.run(
    key,
    () => table.prepare(null, query.filter),
    label,
  )) as TableState<R>;
  const { order } = state;
  const { offset, count } = cursorWindow(list, account, state, query.cursor, query.pageSize);
  await runSliced(readyRange(order, offset, offset + count));
  const total = order.length;
  const window = keysetWindow(query.page, query.pageSize, total, offset, count);
  const accountSid = account.profile.sid;
  const item = (position: number) => {
    const id = order.at(position);
    return { record: () => state.get(id), tableId: table.id, id, accountSid, seeded: isSeededId(id) };
  };
  const { head, tail } = ENVELOPES.twilio({
    key: list.wire.key,
    window,
    uri: path,
    sidAt: (k) => twilioSid(item(offset + k).record().sid),
    params: query.params,
    ...(query.pageToken === undefined ? {} : { pageToken: query.pageToken }),
  });
  const ids = new Uint32Array(count);
  for (let k = 0; k < count; k++) ids[k] = order.at(offset + k);
  exchange.walk = {
    table: table.id,
    list: list.name,
    account: accountSid,
    sort: null,
    filter: query.filter?.key ?? '',
    page: query.page,
    pageSize: query.pageSize,
    ids,
    total,
    last: !window.hasNext,
    clockMs: account.context.nowMs,
    seq: markRead(account.context.nowMs).seq,
  };
  await writePage({
    res,
    format: 'json',
    head,
    tail,
    window,
    order: { key, length: total, item },
    warnings: [],
    keep: exchange.keep,
    wire: list.wire,
    settings,
    account,
    walk: exchange.walk,
    render: ({ record, accountSid: sid }) => list.wire.item(record(), sid, settings.fileBase),
  });
}

/** A list's wire in Twilio's dialect: JSON only (the XML members are never asked for). */
function twilioWire<R>(key: ListName, item: ListWire<R>['item']): ListWire<R> {
  return {
    key,
    uri: (accountSid) => twilioListUri(accountSid, key === 'calls' ? 'Calls' : 'Recordings'),
    item,
    xml: { element: key, paged: false },
    xmlItem: () => {
      throw new ApiError(406, messages.notAcceptable);
    },
  };
}

/** Twilio's two account lists. */
export const TWILIO_LISTS = {
  calls: {
    name: 'calls',
    sidPrefix: 'CA',
    filters: TWILIO_CALL_FILTERS,
    table: (a: Account) => a.tables.calls,
    wire: twilioWire<CallRecord>('calls', (c, sid) => twilioCallJson(c, sid)),
  } satisfies TwilioList<CallRecord, FilterableCall>,
  recordings: {
    name: 'recordings',
    sidPrefix: 'RE',
    filters: TWILIO_RECORDING_FILTERS,
    table: (a: Account) => a.tables.recordings,
    wire: twilioWire<RecordingRecord>('recordings', (r, sid, base) => twilioRecordingJson(r, sid, base)),
  } satisfies TwilioList<RecordingRecord, FilterableRecording>,
} as const;

/** A path of one of Twilio's two account lists: the account sid and the list's segment. */
const LIST_PATH = /^\/2010-04-01\/Accounts\/([A-Za-z0-9]+)\/(Calls|Recordings)\.json$/;

/**
 * Twilio's list lane: a `GET` of the calls or recordings list whose credentials log in at once
 * is served here, before express, as the service's own lists are (routes/list-lane.ts); anything
 * else is left to express. Express costs a tenth of a millisecond a request: as much as a page.
 */
export function twilioLane(world: World, settings: ListSettings, onInternal: (err: unknown) => void): Lane {
  return (req, res) => {
    if (req.method !== 'GET') return false;
    const m = LIST_PATH.exec(urlPath(req.url ?? ''));
    if (m === null) return false;
    const [, sid = '', segment = ''] = m;
    const account = laneAccount(world, settings.dialect, req, sid);
    if (account === undefined) return false;
    const path = twilioListUri(sid, segment);
    const served =
      segment === 'Calls'
        ? serveTwilioList(TWILIO_LISTS.calls, settings, req, res, account, path)
        : serveTwilioList(TWILIO_LISTS.recordings, settings, req, res, account, path);
    served.catch((err: unknown) => writeError(err, res, onInternal, ERROR_BODIES.twilio));
    return true;
  };
}
