import type { AccountProfile, WorldContext } from '../generators/account';
import type { RecordingRecord } from '../generators/recording';
import {
  arrivedCount,
  SETTLE_SEC,
  type TrafficSpec,
  trafficRecording,
  trafficRecordingIndex,
} from '../generators/traffic';
import type { Arrivals } from './table';

/**
 * The recordings of live traffic that have appeared by an instant, keyed by their call's arrival
 * number. Calls that arrived more than SETTLE_SEC ago have ended and their recordings appeared:
 * those are scanned once, as the clock passes them, and kept as a list of arrival numbers (work
 * in proportion to the traffic since the start, never to the account). The calls of the last
 * SETTLE_SEC are looked at again for each clock value, once.
 */
export class TrafficRecordings implements Arrivals<RecordingRecord> {
  readonly dense = false;
  /** Arrival numbers with a recording, ascending, among the calls below `scanned`. */
  private settled: number[] = [];
  private scanned = 0;
  private window: { nowMs: number; ids: number[]; set: Set<number> } | null = null;

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    private readonly traffic: TrafficSpec,
  ) {}

  private at(nowMs: number): { ids: number[]; set: Set<number> } {
    if (this.window?.nowMs === nowMs) return this.window;
    // The clock went back (a reset): start over.
    if (this.window !== null && nowMs < this.window.nowMs) {
      this.settled = [];
      this.scanned = 0;
    }
    const { world, account, traffic } = this;
    const nowSec = Math.floor(nowMs / 1000);
    const settledBy = arrivedCount(world, account, traffic, nowSec - SETTLE_SEC);
    for (; this.scanned < settledBy; this.scanned++) {
      if (trafficRecording(world, account, traffic, this.scanned) !== null) this.settled.push(this.scanned);
    }
    const ids: number[] = [];
    const arrived = arrivedCount(world, account, traffic, nowSec);
    for (let j = this.scanned; j < arrived; j++) {
      const r = trafficRecording(world, account, traffic, j);
      if (r !== null && r.appearSec <= nowSec) ids.push(j);
    }
    this.window = { nowMs, ids, set: new Set(ids) };
    return this.window;
  }

  count(nowMs: number): number {
    const w = this.at(nowMs);
    return this.settled.length + w.ids.length;
  }

  has(j: number, nowMs: number): boolean {
    const w = this.at(nowMs);
    if (j >= this.scanned) return w.set.has(j);
    // Binary search in the settled list.
    let lo = 0;
    let hi = this.settled.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.settled[mid] as number) < j) lo = mid + 1;
      else hi = mid;
    }
    return this.settled[lo] === j;
  }

  *ids(nowMs: number): Iterable<number> {
    const w = this.at(nowMs);
    yield* this.settled;
    yield* w.ids;
  }

  get(j: number, _nowMs: number): RecordingRecord {
    const r = trafficRecording(this.world, this.account, this.traffic, j);
    if (r === null) throw new Error(`arrival ${j} has no recording`);
    return r.rec;
  }

  index(sid: string): number | undefined {
    return trafficRecordingIndex(this.account, sid);
  }
}
