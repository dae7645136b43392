import { createHash } from 'node:crypto';
import { isoMillis } from '../format/dates';
import type { ListName } from '../generators/list-names';
import { parseListQuery } from '../query/list-query';
import { LIST_SPECS } from '../query/list-specs';
import type { WalkPage } from '../query/walk';
import { ARRIVAL_BASE, type Order, readyRange, type Work } from '../store/order';
import type { WriteMark } from '../store/overlay';
import { STORE_LISTS } from '../store/table-kinds';
import type { Account, World } from '../store/world';
import type { JournaledPage } from './journal';

/** Lists longer than this get no `missed` count: the report would read every record. */
const MISSED_LIMIT = 200_000;
/** Sids listed at most in a walk's `duplicates` and `missed` (their counts say how many in all). */
const LISTED_SIDS = 1000;
/** Walks in one answer: by default, and at most (`?limit=`). */
export const DEFAULT_WALKS = 100;
export const MAX_WALKS = 1000;
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
  /** Why each listed duplicate and missed record was (see `Cause`), by sid. */
  causes: Record<string, Cause>;
  /** The clock at the first and the last page. */
  started_at: string;
  ended_at: string;
  /** The journal ids of its requests. */
  requests: number[];
  /** In a fleet's report: the replica whose journal holds each of `requests`. */
  replicas?: string[];
}

/**
 * Why a record was served twice or never: `offset_repeat`, records appeared ahead of it between
 * two pages (offset paging over a growing list); `deletion`, records ahead of it were deleted
 * between two pages and it slid onto a page already read; `moved`, its place in the order or
 * filter changed while the walk ran (a live call's status or duration); across a sync's walks,
 * `commit_lag`, its row became visible after a walk had passed its date; `skew`, its node's
 * clock (or another node's, ahead) dated it behind what a walk had already passed; `arrival`, it
 * was written after a walk had passed its date (a back-dated insert); `not_read`, no walk of the
 * sync read its place while it was there (the filters skipped it).
 */
export type Cause = 'offset_repeat' | 'deletion' | 'moved' | 'commit_lag' | 'skew' | 'arrival' | 'not_read';

interface Walk {
  key: string;
  credentials: string;
  query: string;
  pages: { id: number; walk: WalkPage; replica?: string }[];
}

/** A list as it is now, in a walk's order and filter, as `missedOf` reads it. */
interface ListNow {
  order: Order;
  sid: (id: number) => string;
  created: (id: number) => number;
  /** Whether the record was visible at a moment. */
  visibleAt: (id: number, at: WriteMark) => boolean;
}

/** A list of the account in the order and filter of a walk's query, as it is now. */
function* listNow<K extends ListName>(account: Account, list: K, query: string, zone: string): Work<ListNow> {
  const q = parseListQuery(query, LIST_SPECS[list], undefined, zone);
  const table = account.tables[list];
  const { order, get } = yield* table.prepare(q.sort, q.filter);
  const created = STORE_LISTS[list].kind.values.created;
  return {
    order,
    sid: (id) => get(id).sid,
    created: (id) => created(get(id)),
    visibleAt: (id, at) => table.visibleAt(id, at),
  };
}

/**
 * The walk's records that existed at its start (were visible then: not a back-dated insert made
 * since), exist now, and were never served, up to the last record it was served when it stopped
 * short of the end; in list order, the first LISTED_SIDS of them, and how many. `lists` keeps
 * each list order prepared for one report, so walks of the same list share it. Work in slices.
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
  const start: WriteMark = { ms: first.clockMs, seq: first.seq };
  const last = (w.pages[w.pages.length - 1] as Walk['pages'][number]).walk;
  // A walk that stopped short missed nothing past the last record it was served.
  let end = state.order.length;
  if (!last.last) {
    end = 0;
    for (let p = 0; p < state.order.length; p++) {
      if (p % STEP === 0) yield* readyRange(state.order, p, p + STEP);
      if (served.has(state.order.at(p))) end = p + 1;
      if (p % STEP === STEP - 1) yield;
    }
  }
  const sids: string[] = [];
  let count = 0;
  for (let p = 0; p < end; p++) {
    if (p % STEP === 0) yield* readyRange(state.order, p, p + STEP);
    const id = state.order.at(p);
    if (!served.has(id) && state.visibleAt(id, start)) {
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
): Work<{ walks: WalkReport[]; total: number; syncs: SyncReport[] }> {
  const done: Walk[] = [];
  const open = new Map<string, Walk>();
  for (let n = 0; n < pages.length; n++) {
    const { id, credentials, query, walk, replica } = pages[n] as JournaledPage;
    if (n % STEP === STEP - 1) yield;
    if (window.account !== undefined && walk.account !== window.account) continue;
    const key = [credentials, walk.account, walk.list, walk.sort ?? '', walk.filter].join('\u0000');
    const current = open.get(key);
    const last = current?.pages[current.pages.length - 1]?.walk;
    if (current !== undefined && last !== undefined && walk.page === last.page + 1) {
      current.pages.push({ id, walk, replica });
      continue;
    }
    const fresh: Walk = { key, credentials, query, pages: [{ id, walk, replica }] };
    open.set(key, fresh);
    done.push(fresh);
  }
  const lists = new Map<string, ListNow>();
  const reports: WalkReport[] = [];
  const zone = window.zone ?? 'UTC';
  for (const w of done.slice(window.offset, window.offset + window.limit)) {
    reports.push(yield* report(world, w, lists, zone));
  }
  return { walks: reports, total: done.length, syncs: yield* syncs(world, done, lists, zone) };
}

/**
 * One client's sync of one list: its walks in date order (the default order, or DateCreated
 * either way) with the same filters but for StartTime and EndTime, which a sync moves from run
 * to run as its watermark.
 */
export interface SyncReport {
  client: string;
  account: string;
  list: ListName;
  /** The filters its walks share, without StartTime and EndTime. */
  filter: string;
  walks: number;
  /** Distinct records served by its walks. */
  served: number;
  /** The oldest and newest date_created it was served: the span it covered. */
  from: string | null;
  to: string | null;
  /**
   * Records dated within that span that were visible before its last walk began and that no walk
   * served: the first 1,000, in list order; null for a list too long to check.
   */
  missed: string[] | null;
  missed_count: number | null;
  /** Why each listed missed record was (see `Cause`), by sid. */
  causes: Record<string, Cause>;
  /** The journal ids of its walks' first requests. */
  requests: number[];
  /** In a fleet's report: the replica whose journal holds each of `requests`. */
  replicas?: string[];
}

/** The credentials' digest: what reports show, and what a gather carries between replicas. */
export const digestOf = (credentials: string) => createHash('sha256').update(credentials).digest('hex');
/** Marks a gathered page's credentials as already a digest. */
export const DIGEST = 'sha256:';

/** Who walked, as reports show it: a digest of the credentials, never the credentials. */
const clientOf = (credentials: string) =>
  (credentials.startsWith(DIGEST) ? credentials.slice(DIGEST.length) : digestOf(credentials)).slice(0, 12);

/** Syncs reported at most: they read whole lists. */
const MAX_SYNCS = 100;

/** A walk's filter key without the watermark parameters. */
const syncFilter = (filter: string) =>
  filter
    .split('&')
    .filter((kv) => kv !== '' && !/^(StartTime|EndTime)=/.test(kv))
    .join('&');

/** The syncs among the walks: a client's two or more date-order walks of one list and filter. */
function* syncs(world: World, done: readonly Walk[], lists: Map<string, ListNow>, zone: string): Work<SyncReport[]> {
  const groups = new Map<string, Walk[]>();
  for (const w of done) {
    const first = (w.pages[0] as Walk['pages'][number]).walk;
    if (first.sort !== null && !first.sort.startsWith('created:')) continue;
    const key = [w.credentials, first.account, first.list, first.table, syncFilter(first.filter)].join('\u0000');
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [w]);
    else group.push(w);
  }
  const out: SyncReport[] = [];
  for (const group of groups.values()) {
    if (group.length < 2 || out.length >= MAX_SYNCS) continue;
    const sync = yield* syncOf(world, group, lists, zone);
    if (sync !== null) out.push(sync);
  }
  return out;
}

/** What a sync's walk covered: the dates it was served, when it began and ended. */
interface Covered {
  lo: number;
  hi: number;
  start: WriteMark;
  endMs: number;
}

function* syncOf(
  world: World,
  group: readonly Walk[],
  lists: Map<string, ListNow>,
  zone: string,
): Work<SyncReport | null> {
  const head = (group[0] as Walk).pages[0] as Walk['pages'][number];
  const { account: sid, list, table: tableId } = head.walk;
  const account = world.account(sid);
  const table = account?.tables[list];
  if (account === undefined || table === undefined || table.id !== tableId) return null;
  // Any list's records: each has a creation time, which is all a sync reads of them.
  const created = STORE_LISTS[list].kind.values.created as (record: unknown) => number;
  // Each record's date once, however many walks served it (a poller serves the same page often).
  const dates = new Map<number, number | null>();
  const dateOf = (id: number) => {
    let c = dates.get(id);
    if (c === undefined) {
      c = table.has(id) ? created(table.get(id)) : null;
      dates.set(id, c);
    }
    return c;
  };
  const served = new Set<number>();
  const covered: Covered[] = [];
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const w of group) {
    let wLo = Number.POSITIVE_INFINITY;
    let wHi = Number.NEGATIVE_INFINITY;
    for (const { walk } of w.pages) {
      for (const id of walk.ids) {
        served.add(id);
        const c = dateOf(id);
        if (c === null) continue;
        wLo = Math.min(wLo, c);
        wHi = Math.max(wHi, c);
      }
    }
    lo = Math.min(lo, wLo);
    hi = Math.max(hi, wHi);
    const pages = w.pages;
    const opening = (pages[0] as Walk['pages'][number]).walk;
    // A walk that opened on the first page, newest first, read the head of the list as it stood
    // then: it covered every date up to its start, served or not. A row dated there that it
    // missed was not yet visible (its cause is its lag), not outside the walk.
    const headFirst = opening.page === 0 && (opening.sort === null || opening.sort === 'created:desc');
    covered.push({
      lo: wLo,
      hi: headFirst ? Math.max(wHi, Math.floor(opening.clockMs / 1000)) : wHi,
      start: { ms: opening.clockMs, seq: opening.seq },
      endMs: (pages[pages.length - 1] as Walk['pages'][number]).walk.clockMs,
    });
    yield;
  }
  const lastStart = (covered[covered.length - 1] as Covered).start;
  const report: SyncReport = {
    client: clientOf((group[0] as Walk).credentials),
    account: sid,
    list,
    filter: syncFilter(head.walk.filter),
    walks: group.length,
    served: served.size,
    from: Number.isFinite(lo) ? isoMillis(lo * 1000) : null,
    to: Number.isFinite(hi) ? isoMillis(hi * 1000) : null,
    missed: null,
    missed_count: null,
    causes: {},
    requests: group.map((w) => (w.pages[0] as Walk['pages'][number]).id),
    ...replicasOf(group.map((w) => w.pages[0] as Walk['pages'][number])),
  };
  if (table.count > MISSED_LIMIT || !Number.isFinite(lo)) return report;
  // The list now in date order, with the sync's filters but the watermark.
  const params = new URLSearchParams((group[0] as Walk).query);
  for (const name of ['StartTime', 'EndTime', 'SortBy', 'Reverse']) params.delete(name);
  const query = params.toString();
  const key = `${table.id}|${list}|${query}`;
  let state = lists.get(key);
  if (state === undefined) {
    state = yield* listNow(account, list, query, zone);
    lists.set(key, state);
  }
  const sids: string[] = [];
  let count = 0;
  for (let p = 0; p < state.order.length; p++) {
    if (p % STEP === 0) yield* readyRange(state.order, p, p + STEP);
    const id = state.order.at(p);
    const c = state.created(id);
    if (!served.has(id) && c >= lo && c <= hi && state.visibleAt(id, lastStart)) {
      if (count++ < LISTED_SIDS) {
        const sid = state.sid(id);
        sids.push(sid);
        report.causes[sid] = syncCause(account, table, covered, id, c);
      }
    }
    if (p % STEP === STEP - 1) yield;
  }
  report.missed = sids;
  report.missed_count = count;
  return report;
}

/** Why a sync never saw the record with this id, dated `c`. */
function syncCause(
  account: Account,
  table: Account['tables'][ListName],
  covered: readonly Covered[],
  id: number,
  c: number,
): Cause {
  const over = covered.filter((w) => w.lo <= c && c <= w.hi);
  // A walk went past its date before it was there: what made it late?
  if (over.some((w) => !table.visibleAt(id, w.start))) {
    if (id >= ARRIVAL_BASE && account.trafficCalls !== null) {
      const { lagMs, skewMs } = account.trafficCalls.written(id - ARRIVAL_BASE);
      if (lagMs > 0 && lagMs >= -skewMs) return 'commit_lag';
      if (skewMs < 0 || account.nodes.some((n) => n.skewMs > 0)) return 'skew';
    }
    return 'arrival';
  }
  // A walk went past it while it was there: the offset moved under the walk.
  const passing = over.find((w) => table.visibleAt(id, w.start));
  if (passing !== undefined) return table.removedBetween(passing.start.ms, passing.endMs) ? 'deletion' : 'moved';
  return 'not_read';
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
  const duplicates = repeated.slice(0, LISTED_SIDS).map(([id]) => sidOf(id));
  const causes: Record<string, Cause> = {};
  // Served twice: the list grew ahead of it between its pages (that is what offset paging does).
  for (const sid of duplicates) causes[sid] = 'offset_repeat';
  // Never served though there all along: the list shrank ahead of it between pages, or it moved.
  const deleted = table?.removedBetween(first.clockMs, last.clockMs) === true;
  for (const sid of missed?.sids ?? []) causes[sid] = deleted ? 'deletion' : 'moved';
  return {
    client: clientOf(w.credentials),
    account: first.account,
    list: first.list,
    sort: first.sort,
    filter: first.filter,
    pages: w.pages.length,
    first_page: first.page,
    last_page: last.page,
    complete: last.last,
    items_served: served,
    duplicates,
    duplicates_count: repeated.length,
    missed: missed?.sids ?? null,
    missed_count: missed?.count ?? null,
    causes,
    started_at: isoMillis(first.clockMs),
    ended_at: isoMillis(last.clockMs),
    requests: w.pages.map((p) => p.id),
    ...replicasOf(w.pages),
  };
}

/** A fleet's report names the replica of each request; a replica's own does not. */
const replicasOf = (pages: readonly Walk['pages'][number][]) =>
  pages[0]?.replica === undefined ? {} : { replicas: pages.map((p) => p.replica ?? '') };
