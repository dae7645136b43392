import type { AccountProfile, WorldContext } from '../generators/account';
import type { HazardSpec, TrafficSpec } from '../generators/account-spec';
import { type RestartSweep, sweptAtClock } from '../generators/call-life';
import type { CallRecord } from '../generators/call-record';
import { appearBounds, arrivalHazard, type HazardNode, hazardNodes } from '../generators/hazards';
import { arrivalSec, arrivedCount, SETTLE_SEC, trafficIndex, trafficOutcome } from '../generators/traffic';
import { ARRIVAL_BASE, type Order } from './order';
import type { Arrivals } from './table-contracts';

/** How arrival `j` is written: its final form, when it appears (ms), and its node's skew. */
interface Written {
  outcome: CallRecord;
  appearMs: number;
  skewMs: number;
  lagMs: number;
}

/**
 * The calls of live traffic that exist at an instant. Without hazards an arrival exists from its
 * date_created, so they are the first `arrivedCount` arrivals, counted by a formula. With
 * hazards (generators/hazards.ts) arrival `j` is written by a node whose clock is off by its
 * skew, and its row is visible a lag after that: it appears at date_created − skew + lag. All
 * arrivals dated far enough back have appeared and none dated far enough ahead has, so only
 * those in between (a few minutes' worth) are looked at one by one, once per instant.
 * Restart sweeps (`sweeps`, read on each use) freeze the live calls of a node as `completed`.
 */
export class TrafficCalls implements Arrivals<CallRecord> {
  private readonly nodes: readonly HazardNode[];
  private readonly early: number;
  private readonly late: number;
  private window: { nowMs: number; settledBy: number; ids: number[]; set: Set<number> } | null = null;

  constructor(
    private readonly world: WorldContext,
    private readonly account: AccountProfile,
    private readonly traffic: TrafficSpec,
    private readonly hazards: HazardSpec | undefined,
    private readonly sweeps: () => readonly RestartSweep[],
  ) {
    this.nodes = hazards === undefined ? [] : hazardNodes(world, account, hazards);
    const bounds = hazards === undefined ? { early: 0, late: 0 } : appearBounds(this.nodes, hazards);
    this.early = bounds.early;
    this.late = bounds.late;
  }

  /** The nodes writing this traffic (none: as drawn, on time). */
  get instances(): readonly HazardNode[] {
    return this.nodes;
  }

  /** Arrival `j` as written: by which node, when its row appears. */
  written(j: number): Written {
    const outcome = trafficOutcome(this.world, this.account, this.traffic, j);
    if (this.hazards === undefined) return { outcome, appearMs: outcome.startSec * 1000, skewMs: 0, lagMs: 0 };
    const { node, lagMs } = arrivalHazard(this.account, this.hazards, j);
    const n = node === null ? undefined : this.nodes[node];
    if (n !== undefined) {
      outcome.instanceId = n.instanceId;
      outcome.sid = `${n.instanceId}${outcome.sid.slice(34)}`;
    }
    const skewMs = n?.skewMs ?? 0;
    return { outcome, appearMs: outcome.startSec * 1000 - skewMs + lagMs, skewMs, lagMs };
  }

  /** When arrival `j`'s row appears, without making the call. */
  appearMs(j: number): number {
    const created = arrivalSec(this.world, this.account, this.traffic, j) * 1000;
    if (this.hazards === undefined) return created;
    const { node, lagMs } = arrivalHazard(this.account, this.hazards, j);
    const skew = node === null ? 0 : (this.nodes[node]?.skewMs ?? 0);
    return created - skew + lagMs;
  }

  private at(nowMs: number): { settledBy: number; ids: number[]; set: Set<number> } {
    if (this.window?.nowMs === nowMs) return this.window;
    const { world, account, traffic } = this;
    const settledBy = arrivedCount(world, account, traffic, Math.floor((nowMs - this.late) / 1000));
    const upper = arrivedCount(world, account, traffic, Math.floor((nowMs + this.early) / 1000));
    const ids: number[] = [];
    for (let j = settledBy; j < upper; j++) if (this.appearMs(j) <= nowMs) ids.push(j);
    this.window = { nowMs, settledBy, ids, set: new Set(ids) };
    return this.window;
  }

  count(nowMs: number): number {
    const w = this.at(nowMs);
    return w.settledBy + w.ids.length;
  }

  has(j: number, nowMs: number): boolean {
    const w = this.at(nowMs);
    return j < w.settledBy || w.set.has(j);
  }

  *ids(nowMs: number): Iterable<number> {
    const w = this.at(nowMs);
    for (let j = 0; j < w.settledBy; j++) yield j;
    yield* w.ids;
  }

  /** Arrival `j` at the instant: its state by its node's clock, as restart sweeps left it. */
  get(j: number, nowMs: number): CallRecord {
    const { outcome, skewMs } = this.written(j);
    return sweptAtClock(outcome, nowMs, this.sweeps(), skewMs);
  }

  index(sid: string): number | undefined {
    return trafficIndex(this.account, sid);
  }

  /**
   * The calls live at the instant (queued, ringing or in progress, not swept), of one node or
   * of all (null): only arrivals of the last SETTLE_SEC can be.
   */
  liveCount(nowMs: number, instanceId: string | null): number {
    const { world, account, traffic } = this;
    const from = arrivedCount(world, account, traffic, Math.floor((nowMs - this.late) / 1000) - SETTLE_SEC);
    const upper = arrivedCount(world, account, traffic, Math.floor((nowMs + this.early) / 1000));
    let n = 0;
    for (let j = from; j < upper; j++) {
      if (!this.has(j, nowMs)) continue;
      const call = this.get(j, nowMs);
      if (call.live !== undefined && call.swept !== true && (instanceId === null || call.instanceId === instanceId))
        n++;
    }
    return n;
  }

  /**
   * By creation: arrivals are dated in number order, a second or more apart (no ties), so the
   * order is the settled run and the window's appeared arrivals, end to end.
   */
  createdOrder(nowMs: number, newestFirst: boolean): Order {
    const { settledBy, ids } = this.at(nowMs);
    const length = settledBy + ids.length;
    const ascending = (p: number) => (p < settledBy ? p : (ids[p - settledBy] as number));
    return { length, at: (p) => ARRIVAL_BASE + ascending(newestFirst ? length - 1 - p : p) };
  }
}
