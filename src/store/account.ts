import type { AccountProfile, AccountSpec, WorldContext } from '../generators/account';
import { LIST_NAMES, type ListName, type ListRecords, perList } from '../generators/lists';
import { notificationOfCall } from '../generators/notification';
import { blockLayout, CALLS_PER_BLOCK, RECORDINGS_PER_BLOCK } from '../generators/recording-layout';
import { arrivedCount, trafficCall, trafficIndex } from '../generators/traffic';
import { type ListColumns, STORE_LISTS, type Tables, type TableViews } from './lists';
import { ARRIVAL_BASE, arrivalOrder } from './order';
import { INSERT_BASE } from './overlay';
import { type Arrivals, Table } from './table';
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
  /** Ids of the notifications about a call (a seeded call has one at most). */
  notificationsOfCall(callId: number): number[];
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
  ) {
    const traffic = spec.traffic;
    // Live traffic: calls that exist by the clock alone, made on read like the seeded ones.
    const arrivals =
      traffic === undefined
        ? null
        : {
            count: (nowMs: number) => arrivedCount(context, profile, traffic, Math.floor(nowMs / 1000)),
            has: (j: number, nowMs: number) => j < arrivedCount(context, profile, traffic, Math.floor(nowMs / 1000)),
            ids: function* (nowMs: number) {
              const n = arrivedCount(context, profile, traffic, Math.floor(nowMs / 1000));
              for (let j = 0; j < n; j++) yield j;
            },
            get: (j: number, nowMs: number) => trafficCall(context, profile, traffic, j, nowMs),
            index: (sid: string) => trafficIndex(profile, sid),
            // Arrivals are created in number order, a second or more apart: no ties.
            createdOrder: (nowMs: number, newestFirst: boolean) =>
              arrivalOrder(arrivedCount(context, profile, traffic, Math.floor(nowMs / 1000)), newestFirst),
          };
    this.trafficRecordings =
      traffic === undefined ? null : (shared ?? new TrafficRecordings(context, profile, traffic));
    // What arrives with the clock, by list: every list says, even when it is nothing.
    const arriving: { [K in ListName]: Arrivals<ListRecords[K]> | null } = {
      calls: arrivals,
      recordings: this.trafficRecordings,
      // Live traffic raises no notifications.
      notifications: null,
    };
    const table = <K extends ListName>(name: K): Table<ListRecords[K], ListColumns[K]> =>
      new Table(STORE_LISTS[name].kind, context, profile, STORE_LISTS[name].seeded(spec), arriving[name]);
    this.tables = perList(table) as unknown as Tables;
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
    const fork = new AccountStore({ ...this.context }, profile, spec, this.trafficRecordings);
    const share = <K extends ListName>(name: K) => fork.tables[name].shareSeeded(this.tables[name]);
    for (const name of LIST_NAMES) share(name);
    fork.markForked();
    return fork;
  }

  /** Its writes and clock now are what a reset goes back to: it behaves as a sandbox forked now. */
  markForked(): void {
    this.forkedAtMs = this.context.nowMs;
    for (const name of LIST_NAMES) this.tables[name].markForked();
  }

  /** Back to the seeded records: writes dropped, sort orders of the seeded records kept. */
  clearWrites(): void {
    for (const name of LIST_NAMES) this.tables[name].clearWrites();
    // A sandbox's own clock goes back to where it was forked.
    if (this.forkedAtMs !== null) this.context.nowMs = this.forkedAtMs;
  }

  /** For a sandbox, the clock it was forked at; null for an account of its own. */
  forkedAtMs: number | null = null;

  notificationsOfCall(callId: number): number[] {
    if (callId >= INSERT_BASE) return [];
    const j = notificationOfCall(this.profile, callId, this.tables.notifications.seeded);
    return j !== undefined && this.tables.notifications.has(j) ? [j] : [];
  }

  /** The seeded ones its block's layout puts on the call, and inserted ones naming it. */
  recordingsOfCall(callId: number): number[] {
    const sid = this.calls.get(callId).sid;
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
    for (const rec of this.recordings.insertedRecords()) {
      const id = rec.callSid === sid ? this.recordings.find(rec.sid) : undefined;
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }
}
