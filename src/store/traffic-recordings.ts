import type { AccountProfile, WorldContext } from '../generators/account';
import type { TrafficSpec } from '../generators/account-spec';
import type { RecordingRecord } from '../generators/recording';
import {
  arrivedCount,
  RECORDED_PER_BLOCK,
  recordedBelow,
  recordedInBlock,
  SETTLE_SEC,
  TRAFFIC_BLOCK,
  trafficRecording,
  trafficRecordingIndex,
  trafficRecordingSid,
} from '../generators/traffic';
import { ARRIVAL_BASE, type Order } from './order';
import type { Arrivals } from './table-contracts';
import { windowedOrder } from './windowed-order';

/** How many of the ascending numbers in `sorted` are below `x`. */
function countBelow(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

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
  /** Creation and appearance seconds by arrival number, for recorded arrivals looked at lately. */
  private appear = new Map<number, readonly [number, number]>();
  /** Creation orders placed at the instant of `window`, by direction: dropped when it moves. */
  private orders = new Map<boolean, Order>();
  private window: { nowMs: number; settledBy: number; ids: number[]; set: Set<number> } | null = null;

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    private readonly traffic: TrafficSpec,
  ) {}

  private appearSec(j: number): number {
    return this.times(j)[1];
  }

  /** Creation and appearance seconds of recorded arrival `j`, made once while held. */
  private times(j: number): readonly [number, number] {
    let t = this.appear.get(j);
    if (t === undefined) {
      const r = trafficRecording(this.world, this.account, this.traffic, j) as {
        rec: RecordingRecord;
        appearSec: number;
      };
      t = [r.rec.createdSec, r.appearSec];
      if (this.appear.size >= APPEAR_HELD) this.appear.clear();
      this.appear.set(j, t);
    }
    return t;
  }

  /** The recent recorded arrivals that have appeared by `nowMs`, and below which all have. */
  private at(nowMs: number): { settledBy: number; ids: number[]; set: Set<number> } {
    if (this.window?.nowMs === nowMs) return this.window;
    this.orders.clear();
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

  /**
   * By creation, newest or oldest first, ties by sid ascending (the table's comparison): arrival
   * order but for the recordings made within SETTLE_SEC of each other, so each page sorts only
   * the recordings near it. Ten years of traffic at one call a second (118 million recordings)
   * answered a first page in about 0.2 s; merging them all into an order never finished.
   */
  createdOrder(nowMs: number, newestFirst: boolean): Order {
    const w = this.at(nowMs);
    const made = this.orders.get(newestFirst);
    if (made !== undefined) return made;
    const { account } = this;
    const settled = recordedBelow(account, w.settledBy);
    const created = (j: number) => this.times(j)[0];
    const sid = (j: number) => trafficRecordingSid(account, j);
    const sign = newestFirst ? -1 : 1;
    // Arrivals are at least a slot apart less a second: past `reach` arrivals, SETTLE_SEC has passed.
    const reach = Math.ceil((SETTLE_SEC + 2) / (3600 / this.traffic.callsPerHour)) + 2;
    const inner = windowedOrder({
      length: settled + w.ids.length,
      idAt: (r) => {
        if (r >= settled) return w.ids[r - settled] as number;
        const block = Math.floor(r / RECORDED_PER_BLOCK);
        return block * TRAFFIC_BLOCK + (recordedInBlock(account, block)[r % RECORDED_PER_BLOCK] as number);
      },
      rankBelow: (j) => (j <= w.settledBy ? recordedBelow(account, j) : settled + countBelow(w.ids, j)),
      reach,
      drift: RECORDED_PER_BLOCK * (Math.floor(reach / TRAFFIC_BLOCK) + 2),
      compare: (a, b) => sign * (created(a) - created(b)) || (sid(a) < sid(b) ? -1 : sid(a) > sid(b) ? 1 : 0),
      reversed: newestFirst,
    });
    const order: Order = {
      length: inner.length,
      at: (p) => ARRIVAL_BASE + inner.at(p),
      ready: (from, to) => inner.ready(from, to),
    };
    this.orders.set(newestFirst, order);
    return order;
  }

  index(sid: string): number | undefined {
    return trafficRecordingIndex(this.account, sid);
  }
}
