import type { AccountProfile, AccountSpec, WorldContext } from '../generators/account';
import type { CallRecord } from '../generators/call';
import type { RecordingRecord } from '../generators/recording';
import { blockLayout, CALLS_PER_BLOCK, RECORDINGS_PER_BLOCK } from '../generators/recording-layout';
import { arrivedCount, trafficCall, trafficIndex } from '../generators/traffic';
import { CALL_KIND, type CallColumn } from './calls';
import { ARRIVAL_BASE, arrivalOrder } from './order';
import { INSERT_BASE } from './overlay';
import { RECORDING_KIND, type RecordingColumn } from './recordings';
import { type Created, Table, type TableView } from './table';
import { TrafficRecordings } from './traffic-recordings';

export type CallsView = TableView<CallRecord, CallColumn | Created>;
export type RecordingsView = TableView<RecordingRecord, RecordingColumn | Created>;

/** One account as the rest of the emulator sees it: read-only. Writes go through the World. */
export interface Account {
  readonly context: WorldContext;
  readonly profile: AccountProfile;
  /** What the account is reset to. */
  readonly spec: AccountSpec;
  readonly calls: CallsView;
  readonly recordings: RecordingsView;
  /** Ids of the live recordings of a call. */
  recordingsOfCall(callId: number): number[];
}

/** An account with its writable tables; only the World holds these. */
export class AccountStore implements Account {
  readonly calls: Table<CallRecord, CallColumn>;
  readonly recordings: Table<RecordingRecord, RecordingColumn>;

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
    this.calls = new Table(CALL_KIND, context, profile, spec.calls, arrivals);
    this.trafficRecordings =
      traffic === undefined ? null : (shared ?? new TrafficRecordings(context, profile, traffic));
    this.recordings = new Table(RECORDING_KIND, context, profile, spec.recordings, this.trafficRecordings);
  }

  /** A fork with its own identity (`spec` names its sid and `dataOf`): see Table.shareSeeded. */
  fork(profile: AccountProfile, spec: AccountSpec): AccountStore {
    // Its own clock, starting where the parent's is: moving one never moves the other.
    const fork = new AccountStore({ ...this.context }, profile, spec, this.trafficRecordings);
    fork.calls.shareSeeded(this.calls);
    fork.recordings.shareSeeded(this.recordings);
    fork.markForked();
    return fork;
  }

  /** Its writes and clock now are what a reset goes back to: it behaves as a sandbox forked now. */
  markForked(): void {
    this.forkedAtMs = this.context.nowMs;
    this.calls.markForked();
    this.recordings.markForked();
  }

  /** Back to the seeded records: writes dropped, sort orders of the seeded records kept. */
  clearWrites(): void {
    this.calls.clearWrites();
    this.recordings.clearWrites();
    // A sandbox's own clock goes back to where it was forked.
    if (this.forkedAtMs !== null) this.context.nowMs = this.forkedAtMs;
  }

  /** For a sandbox, the clock it was forked at; null for an account of its own. */
  forkedAtMs: number | null = null;

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
