import type { AccountProfile, WorldContext } from '../generators/account';
import type { RecordingRecord } from '../generators/recording';
import {
  arrivedCount,
  recordedBelow,
  recordedInBlock,
  SETTLE_SEC,
  TRAFFIC_BLOCK,
  type TrafficSpec,
  trafficRecording,
  trafficRecordingIndex,
} from '../generators/traffic';
import type { Arrivals } from './table';

/** Appearance times held at most; past it they are made again as asked. */
const APPEAR_HELD = 200_000;

/**
 * The recordings of live traffic that have appeared by an instant, keyed by their call's arrival
 * number. Which arrivals are recorded is a formula (3 of every 8, see `recordedInBlock`), and
 * every call that arrived more than SETTLE_SEC ago has ended and its recording appeared: so the
 * count is a formula too, whatever the clock (ten years of traffic at one call a second are
 * counted in microseconds). Only the calls of the last SETTLE_SEC are looked at, each once: their
 * appearance times are kept, so a clock moved a second on looks at the second's arrivals alone.
 * Nothing here depends on whose clock asks: a sandbox shares its parent's.
 */
export class TrafficRecordings implements Arrivals<RecordingRecord> {
  readonly dense = false;
  /** Appearance second by arrival number, for recorded arrivals of recent windows. */
  private appear = new Map<number, number>();
  private window: { nowMs: number; settledBy: number; ids: number[]; set: Set<number> } | null = null;

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    private readonly traffic: TrafficSpec,
  ) {}

  private appearSec(j: number): number {
    let sec = this.appear.get(j);
    if (sec === undefined) {
      sec = (trafficRecording(this.world, this.account, this.traffic, j) as { appearSec: number }).appearSec;
      if (this.appear.size >= APPEAR_HELD) this.appear.clear();
      this.appear.set(j, sec);
    }
    return sec;
  }

  /** The recent recorded arrivals that have appeared by `nowMs`, and below which all have. */
  private at(nowMs: number): { settledBy: number; ids: number[]; set: Set<number> } {
    if (this.window?.nowMs === nowMs) return this.window;
    const { world, account, traffic } = this;
    const nowSec = Math.floor(nowMs / 1000);
    const settledBy = arrivedCount(world, account, traffic, nowSec - SETTLE_SEC);
    const arrived = arrivedCount(world, account, traffic, nowSec);
    const ids: number[] = [];
    for (let block = Math.floor(settledBy / TRAFFIC_BLOCK); block * TRAFFIC_BLOCK < arrived; block++) {
      for (const p of recordedInBlock(account, block)) {
        const j = block * TRAFFIC_BLOCK + p;
        if (j >= settledBy && j < arrived && this.appearSec(j) <= nowSec) ids.push(j);
      }
    }
    this.window = { nowMs, settledBy, ids, set: new Set(ids) };
    return this.window;
  }

  count(nowMs: number): number {
    const w = this.at(nowMs);
    return recordedBelow(this.account, w.settledBy) + w.ids.length;
  }

  has(j: number, nowMs: number): boolean {
    const w = this.at(nowMs);
    if (j >= w.settledBy) return w.set.has(j);
    return recordedInBlock(this.account, Math.floor(j / TRAFFIC_BLOCK)).includes(j % TRAFFIC_BLOCK);
  }

  *ids(nowMs: number): Iterable<number> {
    const w = this.at(nowMs);
    const blocks = Math.ceil(w.settledBy / TRAFFIC_BLOCK);
    for (let block = 0; block < blocks; block++) {
      for (const p of recordedInBlock(this.account, block)) {
        const j = block * TRAFFIC_BLOCK + p;
        if (j < w.settledBy) yield j;
      }
    }
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
