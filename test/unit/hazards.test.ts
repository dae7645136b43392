import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import type { HazardSpec } from '../../src/generators/account-spec';
import { callAtClock, shownDuration, shownEndMs, shownStatus, sweptAtClock } from '../../src/generators/call-life';
import type { CallRecord } from '../../src/generators/call-record';
import { arrivalHazard, hazardNodes } from '../../src/generators/hazards';
import { arrivalSec, arrivedCount, trafficOutcome } from '../../src/generators/traffic';
import { ARRIVAL_BASE } from '../../src/store/order';
import { TrafficCalls } from '../../src/store/traffic-calls';

const CLOCK = Date.parse('2025-06-01T12:00:00Z');
const world = makeWorldContext('callrec', CLOCK);
const account = makeAccountProfile('callrec', { friendlyName: 'Hazards', calls: 10, recordings: 0 }, 0);
const traffic = { callsPerHour: 600 };
const HAZARDS: HazardSpec = { commitLagS: 120, instances: { count: 3, maxSkewS: 30 } };

describe('hazards: nodes and per-arrival draws', () => {
  test('nodes are seeded: the same spec gives the same InstanceIds and skews, within the bound', () => {
    const nodes = hazardNodes(world, account, HAZARDS);
    expect(nodes).toEqual(hazardNodes(world, account, HAZARDS));
    expect(nodes).toHaveLength(3);
    expect(new Set(nodes.map((n) => n.instanceId)).size).toBe(3);
    for (const n of nodes) {
      expect(n.instanceId).toMatch(/^ID[0-9a-f]{32}$/);
      expect(Math.abs(n.skewMs)).toBeLessThanOrEqual(30_000);
    }
    expect(hazardNodes(world, account, { commitLagS: 5, instances: null })).toEqual([]);
  });

  test('each arrival draws a lag below commit_lag_s and a node among the count, and every node is drawn', () => {
    const drawn = new Set<number>();
    for (let j = 0; j < 300; j++) {
      const { node, lagMs } = arrivalHazard(account, HAZARDS, j);
      expect(lagMs).toBeGreaterThanOrEqual(0);
      expect(lagMs).toBeLessThan(120_000);
      drawn.add(node as number);
    }
    expect([...drawn].sort()).toEqual([0, 1, 2]);
  });
});

/** Arrivals 0..n-1 as an oracle sees them: appearing at date_created − skew + lag. */
function oracle(calls: TrafficCalls, nowMs: number, n: number): number[] {
  const nodes = hazardNodes(world, account, HAZARDS);
  const visible: number[] = [];
  for (let j = 0; j < n; j++) {
    const { node, lagMs } = arrivalHazard(account, HAZARDS, j);
    const skew = (nodes[node as number] as { skewMs: number }).skewMs;
    if (arrivalSec(world, account, traffic, j) * 1000 - skew + lagMs <= nowMs) visible.push(j);
  }
  expect(visible.length).toBe(calls.count(nowMs));
  return visible;
}

describe('TrafficCalls: which arrivals exist at an instant', () => {
  const none = () => [];

  test('without hazards: the first arrivedCount arrivals, as before', () => {
    const calls = new TrafficCalls(world, account, traffic, undefined, none);
    for (const minutes of [0, 1, 7, 60, 600]) {
      const now = CLOCK + minutes * 60_000;
      expect(calls.count(now)).toBe(arrivedCount(world, account, traffic, Math.floor(now / 1000)));
      expect(calls.get(0, now + 3_600_000)).toEqual(
        callAtClock(trafficOutcome(world, account, traffic, 0), now + 3_600_000),
      );
    }
  });

  test.each([5, 30, 61, 120, 600])(
    'with hazards, %i minutes on: count, has, ids and both creation orders agree with the oracle',
    (minutes) => {
      const calls = new TrafficCalls(world, account, traffic, HAZARDS, none);
      const now = CLOCK + minutes * 60_000 + 123;
      const n = arrivedCount(world, account, traffic, Math.floor(now / 1000) + 60);
      const visible = oracle(calls, now, n);
      expect([...calls.ids(now)]).toEqual(visible);
      for (let j = 0; j < n; j++) expect(calls.has(j, now)).toBe(visible.includes(j));
      const newest = calls.createdOrder(now, true);
      const oldest = calls.createdOrder(now, false);
      const ids = (o: { length: number; at(p: number): number }) =>
        Array.from({ length: o.length }, (_, p) => o.at(p) - ARRIVAL_BASE);
      expect(ids(oldest)).toEqual(visible);
      expect(ids(newest)).toEqual([...visible].reverse());
    },
  );

  test("a call is written by its node: its InstanceId and sid prefix, and it lives by the node's clock", () => {
    const calls = new TrafficCalls(world, account, traffic, HAZARDS, none);
    const nodes = hazardNodes(world, account, HAZARDS);
    for (let j = 0; j < 40; j++) {
      const { outcome, skewMs, lagMs, appearMs } = calls.written(j);
      const node = nodes[arrivalHazard(account, HAZARDS, j).node as number] as { instanceId: string; skewMs: number };
      expect(outcome.instanceId).toBe(node.instanceId);
      expect(outcome.sid.startsWith(`${node.instanceId}-CA`)).toBe(true);
      expect(appearMs).toBe(outcome.startSec * 1000 - skewMs + lagMs);
      expect(calls.appearMs(j)).toBe(appearMs);
      const at = appearMs + 5_000;
      expect(calls.get(j, at)).toEqual(callAtClock(outcome, at + skewMs));
    }
  });
});

describe('restart sweeps', () => {
  const live: CallRecord = {
    ...trafficOutcome(world, account, traffic, 0),
    status: 'completed',
    direction: 'outbound-api',
    startSec: CLOCK / 1000,
    ringSec: 10,
    duration: 300,
    endMs: CLOCK + 310_500,
  };

  test('a live call of the swept node becomes completed by status alone, and stays so', () => {
    const sweep = { instanceId: live.instanceId, atMs: CLOCK + 60_000 };
    const before = callAtClock(live, sweep.atMs);
    for (const later of [sweep.atMs, sweep.atMs + 1, CLOCK + 400_000, CLOCK + 86_400_000]) {
      const swept = sweptAtClock(live, later, [sweep]);
      expect(shownStatus(swept)).toBe('completed');
      expect(shownEndMs(swept)).toBeUndefined();
      expect(shownDuration(swept)).toBeUndefined();
      expect(swept.live).toEqual(before.live);
    }
    // Before the sweep, as ever.
    expect(sweptAtClock(live, sweep.atMs - 1, [sweep])).toEqual(callAtClock(live, sweep.atMs - 1));
  });

  test("another node's sweep, a sweep before the call or after its end, leave it its life", () => {
    for (const sweep of [
      { instanceId: 'ID00000000000000000000000000000000', atMs: CLOCK + 60_000 },
      { instanceId: null, atMs: CLOCK - 1 },
      { instanceId: null, atMs: live.endMs },
    ]) {
      const later = CLOCK + 400_000;
      expect(sweptAtClock(live, later, [sweep])).toEqual(callAtClock(live, later));
    }
    expect(shownStatus(sweptAtClock(live, CLOCK + 400_000, [{ instanceId: null, atMs: CLOCK + 5_000 }]))).toBe(
      'completed',
    );
  });

  test("the node's clock decides whether the call was live: a node behind sweeps a call its clock has not ended", () => {
    const sweep = { instanceId: null, atMs: live.endMs + 1_000 };
    expect(sweptAtClock(live, sweep.atMs, [sweep], 0).swept).toBeUndefined();
    expect(sweptAtClock(live, sweep.atMs, [sweep], -5_000).swept).toBe(true);
  });
});
