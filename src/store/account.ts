import type { AccountProfile, WorldContext } from '../generators/account';
import type { AccountSpec } from '../generators/account-spec';
import { type RestartSweep, storedAtClock } from '../generators/call-life';
import type { CallRecord } from '../generators/call-record';
import type { HazardNode } from '../generators/hazards';
import { LIST_NAMES, type ListName, perList } from '../generators/list-names';
import type { ListRecords } from '../generators/list-records';
import { notificationOfCall } from '../generators/notification';
import { blockLayout, CALLS_PER_BLOCK, RECORDINGS_PER_BLOCK } from '../generators/recording-layout';
import type { VerbatimAccount } from '../generators/rows';
import { callOfRow, notificationOfRow, recordingOfRow } from '../generators/verbatim';
import { ARRIVAL_BASE } from './order';
import { INSERT_BASE } from './overlay';
import { Table } from './table';
import type { Arrivals } from './table-contracts';
import { type ListColumns, STORE_LISTS, type Tables, type TableViews } from './table-kinds';
import { TrafficCalls } from './traffic-calls';
import { TrafficRecordings } from './traffic-recordings';

export type CallsView = TableViews['calls'];
export type RecordingsView = TableViews['recordings'];

/** One account as the rest of the emulator sees it: read-only. Writes go through the World. */
export interface Account {
  readonly context: WorldContext;
  readonly profile: AccountProfile;
  /** What the account is reset to. */
  readonly spec: AccountSpec;
  /** Every list's table, by list name: what code that serves any list reads. */
  readonly tables: TableViews;
  /** Its calls and its recordings, for code about those two in particular. */
  readonly calls: CallsView;
  readonly recordings: RecordingsView;
  /** Ids of the live recordings of a call. */
  recordingsOfCall(callId: number): number[];
  /** The same for many calls at once, the inserted recordings read once (a page of a thousand calls). */
  recordingsOfCalls(callIds: readonly number[]): number[][];
  /** Ids of the notifications about a call (a seeded call has one at most). */
  notificationsOfCall(callId: number): number[];
  /** Restart sweeps so far, oldest first (see `sweptAtClock`). */
  readonly sweeps: readonly RestartSweep[];
  /** Whether a record is one of the account's own rows of production's data (see AccountStore.loadRows). */
  isOwnRow(record: { row?: object }): boolean;
  /** A sandbox's clock and restarts as a reset of it brings them back; null for any other account. */
  readonly forkedWith: { atMs: number; sweeps: readonly RestartSweep[] } | null;
  /** The nodes its hazards put on its traffic (none without the `instances` hazard). */
  readonly nodes: readonly HazardNode[];
  /** Its live traffic's calls, when it has traffic: what the walks report asks when a row appeared. */
  readonly trafficCalls: TrafficCalls | null;
  /** How many of its calls are live now (queued, ringing, in progress), of one node or all (null). */
  liveCallCount(instanceId: string | null): number;
}

/** An account with its writable tables; only the World holds these. */
export class AccountStore implements Account {
  readonly tables: Tables;

  /** The recordings of its live traffic: shared with its forks, which draw the same traffic. */
  private readonly trafficRecordings: TrafficRecordings | null;

  constructor(
    readonly context: WorldContext,
    readonly profile: AccountProfile,
    readonly spec: AccountSpec,
    shared: TrafficRecordings | null = null,
    /** False for a fork, which shares its parent's records, rows included. */
    withRows = true,
  ) {
    const traffic = spec.traffic;
    // Live traffic: calls that exist by the clock alone, made on read like the seeded ones.
    this.trafficCalls =
      traffic === undefined ? null : new TrafficCalls(context, profile, traffic, spec.hazards, () => this.sweeps);
    const arrivals = this.trafficCalls;
    this.trafficRecordings =
      traffic === undefined ? null : (shared ?? new TrafficRecordings(context, profile, traffic));
    // What arrives with the clock, by list: every list says, even when it is nothing.
    const arriving: { [K in ListName]: Arrivals<ListRecords[K]> | null } = {
      calls: arrivals,
      recordings: this.trafficRecordings,
      // Live traffic raises no notifications.
      notifications: null,
    };
    // An inserted live call is swept by a restart as a call of traffic is.
    const moves: { [K in ListName]: ((r: ListRecords[K], nowMs: number) => ListRecords[K]) | null } = {
      calls: (call: CallRecord, nowMs: number) => storedAtClock(call, nowMs, this.sweeps),
      recordings: null,
      notifications: null,
    };
    const table = <K extends ListName>(name: K): Table<ListRecords[K], ListColumns[K]> =>
      new Table(STORE_LISTS[name].kind, context, profile, STORE_LISTS[name].seeded(spec), arriving[name], moves[name]);
    this.tables = perList(table) as unknown as Tables;
    if (spec.verbatim !== undefined && withRows) this.loadRows(spec.verbatim);
  }

  /**
   * Production's rows, as records written before anything else (by sid, so the order they came
   * in changes nothing), and what a reset of the account goes back to, as a fork's writes are.
   */
  private loadRows(v: VerbatimAccount): void {
    for (const row of v.calls) this.tables.calls.insert(callOfRow(row));
    for (const row of v.recordings) this.tables.recordings.insert(recordingOfRow(row));
    for (const row of v.notifications) this.tables.notifications.insert(notificationOfRow(row));
    for (const name of LIST_NAMES) this.tables[name].markForked();
  }

  /** Whether a record is one of the account's own rows (see `loadRows`): a state export lists those with the account, not as writes. */
  isOwnRow(record: { row?: object }): boolean {
    return record.row !== undefined && this.ownRows.has(record.row);
  }

  private get ownRows(): ReadonlySet<object> {
    if (this.rowSet === null) {
      const v = this.spec.verbatim;
      this.rowSet = new Set<object>(v === undefined ? [] : [...v.calls, ...v.recordings, ...v.notifications]);
    }
    return this.rowSet;
  }

  private rowSet: Set<object> | null = null;

  readonly trafficCalls: TrafficCalls | null;

  /** Restart sweeps so far, oldest first: writes, as inserts are (exported, reset, forked). */
  sweeps: readonly RestartSweep[] = [];
  private forkedSweeps: readonly RestartSweep[] = [];

  get nodes(): readonly HazardNode[] {
    return this.trafficCalls?.instances ?? [];
  }

  liveCallCount(instanceId: string | null): number {
    const now = this.context.nowMs;
    let n = this.trafficCalls?.liveCount(now, instanceId) ?? 0;
    for (const rec of this.calls.insertedRecords()) {
      const call = storedAtClock(rec, now, this.sweeps);
      if (call.live !== undefined && call.swept !== true && (instanceId === null || call.instanceId === instanceId))
        n++;
    }
    return n;
  }

  /** A restart of a node (null: all) at the account's clock now (or at `atMs`, replayed). For the World only. */
  restart(instanceId: string | null, atMs = this.context.nowMs): void {
    this.sweeps = [...this.sweeps, { instanceId, atMs }];
    this.calls.touch();
  }

  get calls(): Tables['calls'] {
    return this.tables.calls;
  }

  get recordings(): Tables['recordings'] {
    return this.tables.recordings;
  }

  /** A fork with its own identity (`spec` names its sid and `dataOf`): see Table.shareSeeded. */
  fork(profile: AccountProfile, spec: AccountSpec): AccountStore {
    // Its own clock, starting where the parent's is: moving one never moves the other.
    const fork = new AccountStore({ ...this.context }, profile, spec, this.trafficRecordings, false);
    fork.sweeps = this.sweeps;
    const share = <K extends ListName>(name: K) => fork.tables[name].shareSeeded(this.tables[name]);
    for (const name of LIST_NAMES) share(name);
    fork.markForked();
    return fork;
  }

  /** Its writes and clock now are what a reset goes back to: it behaves as a sandbox forked now. */
  markForked(): void {
    this.forkedAtMs = this.context.nowMs;
    this.forkedSweeps = this.sweeps;
    for (const name of LIST_NAMES) this.tables[name].markForked();
  }

  /** Back to the seeded records: writes dropped, sort orders of the seeded records kept. */
  clearWrites(): void {
    for (const name of LIST_NAMES) this.tables[name].clearWrites();
    this.sweeps = this.forkedSweeps;
    // A sandbox's own clock goes back to where it was forked.
    if (this.forkedAtMs !== null) this.context.nowMs = this.forkedAtMs;
  }

  /** What a reset of a sandbox goes back to: its clock and restarts when forked (its tables say the rest). */
  get forkedWith(): { atMs: number; sweeps: readonly RestartSweep[] } | null {
    return this.forkedAtMs === null ? null : { atMs: this.forkedAtMs, sweeps: this.forkedSweeps };
  }

  /** For a sandbox, the clock it was forked at; null for an account of its own. */
  forkedAtMs: number | null = null;

  notificationsOfCall(callId: number): number[] {
    if (callId >= INSERT_BASE) return [];
    const j = notificationOfCall(this.profile, callId, this.tables.notifications.seeded);
    return j !== undefined && this.tables.notifications.has(j) ? [j] : [];
  }

  recordingsOfCall(callId: number): number[] {
    return this.recordingsOfCalls([callId])[0] as number[];
  }

  /** The seeded ones its block's layout puts on each call, and inserted ones naming it. */
  recordingsOfCalls(callIds: readonly number[]): number[][] {
    const inserted = new Map<string, number[]>();
    for (const rec of this.recordings.insertedRecords()) {
      const id = this.recordings.find(rec.sid);
      if (id === undefined) continue;
      const named = inserted.get(rec.callSid);
      if (named === undefined) inserted.set(rec.callSid, [id]);
      else named.push(id);
    }
    return callIds.map((callId) => {
      const ids: number[] = [];
      if (callId < INSERT_BASE) {
        const block = Math.floor(callId / CALLS_PER_BLOCK);
        blockLayout(this.profile, block).forEach((offset, p) => {
          const j = block * RECORDINGS_PER_BLOCK + p;
          if (offset === callId % CALLS_PER_BLOCK && this.recordings.has(j)) ids.push(j);
        });
      }
      // A call of live traffic: its recording has the call's arrival number, once it has appeared.
      if (callId >= ARRIVAL_BASE && this.recordings.has(callId)) ids.push(callId);
      ids.push(...(inserted.get(this.calls.get(callId).sid) ?? []));
      return ids;
    });
  }
}
