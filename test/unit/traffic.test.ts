import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { callAtClock } from '../../src/generators/call-life';
import { CALL_STATUSES } from '../../src/generators/call-record';
import { arrivalSec, arrivedCount, trafficIndex, trafficOutcome, trafficRecording } from '../../src/generators/traffic';
import { ARRIVAL_BASE } from '../../src/store/order';
import { TrafficRecordings } from '../../src/store/traffic-recordings';

const world = makeWorldContext('traffic', Date.UTC(2025, 5, 1, 12));
const account = makeAccountProfile('traffic', { friendlyName: 'Live', calls: 0, recordings: 0 }, 0);
const T = { callsPerHour: 120 };
const start = world.clockSec;

describe('live traffic arrivals', () => {
  test('strictly increasing, after the reference instant, one a slot', () => {
    let last = start;
    for (let j = 0; j < 2000; j++) {
      const t = arrivalSec(world, account, T, j);
      expect(t).toBeGreaterThan(last);
      expect(t - start - 1).toBeGreaterThanOrEqual(j * 30);
      expect(t - start - 1).toBeLessThan((j + 1) * 30);
      last = t;
    }
  });

  test.each([1, 7, 120, 3600])('arrivedCount equals counting arrivals one by one (%d an hour)', (rate) => {
    const t = { callsPerHour: rate };
    const times = Array.from({ length: 300 }, (_, j) => arrivalSec(world, account, t, j));
    for (const now of [start - 10, start, start + 1, start + 29, start + 61, ...times, ...times.map((x) => x - 1)]) {
      if (now > (times[times.length - 1] as number)) continue;
      expect([now, arrivedCount(world, account, t, now)]).toEqual([now, times.filter((x) => x <= now).length]);
    }
  });
});

describe('a call passes through production states', () => {
  const call = (j: number, offsetSec: number) => {
    const t0 = arrivalSec(world, account, T, j);
    return callAtClock(trafficOutcome(world, account, T, j), (t0 + offsetSec) * 1000);
  };
  // The final form of each of the first calls, and its states at each step of its life.
  const finals = Array.from({ length: 200 }, (_, j) => [j, call(j, 100_000)] as const);

  test('every outcome occurs, and each call ends as one of them', () => {
    const outcomes = new Set(finals.map(([, c]) => c.status));
    // Not-found (1% of outbound calls) may or may not be among the first 200; the rest are.
    expect([...outcomes].filter((o) => o !== 'not-found').sort()).toEqual([
      'busy',
      'canceled',
      'completed',
      'failed',
      'no-answer',
    ]);
    for (const o of outcomes) expect(CALL_STATUSES).toContain(o);
    for (const [, c] of finals) expect(c.live).toBeUndefined();
  });

  test('a call is never shown ended before its end: live at its end − 1 ms, ended at its end', () => {
    let early = 0;
    for (const [j, final] of finals) {
      const before = callAtClock(trafficOutcome(world, account, T, j), final.endMs - 1);
      const at = callAtClock(trafficOutcome(world, account, T, j), final.endMs);
      expect(before.live).toBeDefined();
      expect(at).toEqual(final);
      if (final.endMs % 1000 > 0) early++;
    }
    // The old rule (ended from the whole second) showed these ended early.
    expect(early).toBeGreaterThan(100);
  });

  test('before its end a call is live: a live state no later than the clock', () => {
    for (const [j, final] of finals) {
      const t0 = final.startSec;
      for (let t = t0; t * 1000 < final.endMs && t < t0 + 120; t++) {
        const c = call(j, t - t0);
        expect(c.sid).toBe(final.sid);
        expect(['queued', 'ringing', 'in-progress']).toContain(c.live?.status);
        expect(c.live?.updatedSec).toBeLessThanOrEqual(t);
      }
    }
  });

  test('a recorded arrival is answered', () => {
    for (const [j, final] of finals)
      if (trafficRecording(world, account, T, j) !== null) expect(final.status).toBe('completed');
  });

  test('the sid encodes the arrival: found again, and no other sid is', () => {
    for (const [j, c] of finals.slice(0, 20)) expect(trafficIndex(account, c.sid)).toBe(j);
    expect(trafficIndex(account, 'nope')).toBeUndefined();
  });
});

describe('recordings of live traffic', () => {
  test('count, has and ids agree with asking each call, across the settled boundary and after a reset', () => {
    const set = new TrafficRecordings(world, account, T);
    const brute = (nowSec: number) => {
      const out: number[] = [];
      for (let j = 0; j < arrivedCount(world, account, T, nowSec); j++) {
        const r = trafficRecording(world, account, T, j);
        if (r !== null && r.appearSec <= nowSec) out.push(j);
      }
      return out;
    };
    for (const hours of [0, 0.5, 3, 4.1, 9, 30, 2]) {
      const nowSec = start + Math.round(hours * 3600);
      const expected = brute(nowSec);
      expect(set.count(nowSec * 1000)).toBe(expected.length);
      expect([...set.ids(nowSec * 1000)].sort((a, b) => a - b)).toEqual(expected);
      const last = expected[expected.length - 1] ?? 0;
      for (let j = 0; j <= last + 3; j++) expect(set.has(j, nowSec * 1000)).toBe(expected.includes(j));
    }
  });

  test.each([
    [3600, 12],
    [120, 24 * 30],
    [1, 24 * 400],
  ])(
    'the creation orders at %d an hour after %d hours equal a full sort of every recording, both ways',
    (rate, hours) => {
      const t = { callsPerHour: rate };
      const set = new TrafficRecordings(world, account, t);
      // An instant a few minutes after a call ended, so that some recent recordings have not appeared.
      const nowMs = (start + hours * 3600 + 97) * 1000;
      const ids = [...set.ids(nowMs)];
      expect(ids.length).toBe(set.count(nowMs));
      const rec = new Map(ids.map((j) => [j, set.get(j, nowMs)]));
      const bySid = (a: number, b: number) => {
        const x = rec.get(a)?.sid as string;
        const y = rec.get(b)?.sid as string;
        return x < y ? -1 : x > y ? 1 : 0;
      };
      const created = (j: number) => rec.get(j)?.createdSec as number;
      for (const newestFirst of [true, false]) {
        const sign = newestFirst ? -1 : 1;
        const expected = [...ids].sort((a, b) => sign * (created(a) - created(b)) || bySid(a, b));
        const order = set.createdOrder(nowMs, newestFirst);
        expect(order.length).toBe(expected.length);
        const got = Array.from({ length: order.length }, (_, p) => order.at(p) - ARRIVAL_BASE);
        expect(got).toEqual(expected);
      }
      // Recordings made out of arrival order: the orders above are more than arrival order.
      if (rate > 1) expect(ids.some((j, k) => k > 0 && created(j) < created(ids[k - 1] as number))).toBe(true);
    },
  );
});
