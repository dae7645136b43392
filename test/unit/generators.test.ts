import { DEFAULT_CLOCK } from '../../src/config';
import { parseInstant } from '../../src/format/dates';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import type { AccountSpec } from '../../src/generators/account-spec';
import { callFrom, callTo, generateCall } from '../../src/generators/call';
import { newHead, scanHeads } from '../../src/generators/call-draws';
import { callKeysInto, KEYED_FIELDS, keyedFacts } from '../../src/generators/call-keys';
import { CALL_DIRECTIONS, CALL_STATUSES } from '../../src/generators/call-record';
import { generateRecording } from '../../src/generators/recording';
import {
  blockLayout,
  CALLS_PER_BLOCK,
  MAX_PER_CALL,
  placeRecording,
  RECORDINGS_PER_BLOCK,
  recordedMask,
  recordingCapacity,
} from '../../src/generators/recording-layout';
import { callStartSec } from '../../src/generators/timeline';
import { StreamFamily } from '../../src/random/stream';
import { CALL_KIND, eachHead } from '../../src/store/calls';
import { finish } from '../../src/store/order';
import { World } from '../../src/store/world';

const clockMs = parseInstant(DEFAULT_CLOCK) as number;
const world = makeWorldContext('unit-seed', clockMs);
const spec: AccountSpec = { friendlyName: 'Unit', calls: 3000, recordings: 2000 };
const account = makeAccountProfile('unit-seed', spec, 0);
const HEX32 = '[0-9a-f]{32}';

describe('identities', () => {
  test('sids and tokens have production shapes', () => {
    expect(account.sid).toMatch(new RegExp(`^AC${HEX32}$`));
    expect(account.token).toMatch(new RegExp(`^${HEX32}$`));
    const call = generateCall(world, account, 7);
    expect(call.instanceId).toMatch(new RegExp(`^ID${HEX32}$`));
    expect(call.sid).toMatch(new RegExp(`^ID${HEX32}-CA${HEX32}$`));
    expect(call.sid.startsWith(`${call.instanceId}-CA`)).toBe(true);
    expect(call.phoneNumberSid).toMatch(new RegExp(`^PN${HEX32}$`));
    expect(generateRecording(world, account, 5).sid).toMatch(new RegExp(`^RE${HEX32}$`));
  });

  test('a given sid or token is kept; the rest comes from the seed', () => {
    const sid = `AC${'ab'.repeat(16)}`;
    const p = makeAccountProfile('unit-seed', { friendlyName: 'X', calls: 0, recordings: 0, sid, token: 'tok' }, 0);
    expect(p.sid).toBe(sid);
    expect(p.token).toBe('tok');
    const q = makeAccountProfile('unit-seed', { friendlyName: 'X', calls: 0, recordings: 0 }, 0);
    expect(q).toEqual(makeAccountProfile('unit-seed', { friendlyName: 'X', calls: 5, recordings: 1 }, 0));
    expect(makeAccountProfile('other-seed', { friendlyName: 'X', calls: 0, recordings: 0 }, 0).sid).not.toBe(q.sid);
  });
});

describe('determinism', () => {
  test('a record is a pure function of (seed, account, kind, index), in any order of calls', () => {
    const forward = [0, 1, 2, 400, 2999].map((i) => generateCall(world, account, i));
    const backward = [2999, 400, 2, 1, 0].map((i) => generateCall(world, account, i)).reverse();
    expect(backward).toEqual(forward);
    expect(generateRecording(world, account, 1999)).toEqual(generateRecording(world, account, 1999));
  });

  test("a family's fill gives a record's first draws, as its stream does one by one", () => {
    const family = new StreamFamily(['seed', 'AC1', 'call']);
    for (const i of [0, 1, 7, 8, 4_000_000, 2 ** 31 - 1]) {
      const s = family.at(i);
      const one = Array.from({ length: 9 }, () => s.float());
      expect(Array.from(family.fill(i, new Float64Array(9)))).toEqual(one);
      expect(Array.from(family.fill(i, new Float64Array(2)))).toEqual(one.slice(0, 2));
    }
  });

  test('a scan of heads, as a filter of times reads it, is the start of the full record', () => {
    const fields = ['direction', 'status', 'duration', 'priceInt', 'from', 'to', 'endMilli'];
    const seen: Record<string, unknown>[] = [];
    // From 5 on: a scan may start inside a block of calls.
    scanHeads(account, 5, 3000, newHead(), (h, _i, endMilli) => {
      const { direction, status, duration, priceInt } = h;
      seen.push({
        direction,
        status,
        duration,
        priceInt,
        from: callFrom(account, h),
        to: callTo(account, h),
        endMilli,
      });
    });
    expect(seen).toHaveLength(2995);
    seen.forEach((got, k) => {
      const call = generateCall(world, account, k + 5);
      const all: Record<string, unknown> = { ...call, endMilli: call.endMs % 1000 };
      expect(got).toEqual(Object.fromEntries(fields.map((f) => [f, all[f]])));
    });
  });

  // A column's keys must order calls exactly as production orders the column's values.
  test.each(['from', 'to', 'direction', 'status', 'duration', 'price'] as const)(
    'the %s keys of a scan (from inside a block) order the calls as their values do',
    (column) => {
      const keys = new Uint16Array(3000);
      callKeysInto(account, column, 5, 3000, keys);
      const value = CALL_KIND.values[column];
      const pairs = Array.from(
        { length: 2995 },
        (_, k) => [keys[k + 5] as number, value(generateCall(world, account, k + 5))] as const,
      );
      pairs.sort((a, b) => a[0] - b[0]);
      for (let k = 1; k < pairs.length; k++) {
        const [[keyA, a], [keyB, b]] = [pairs[k - 1]!, pairs[k]!];
        if (keyA === keyB) expect(b).toEqual(a);
        else expect(a < b).toBe(true);
      }
      // More than one key occurs, so the test above compares orders.
      expect(new Set(pairs.map(([key]) => key)).size).toBeGreaterThan(2);
    },
  );

  test.each(Object.keys(KEYED_FIELDS) as (keyof typeof KEYED_FIELDS)[])(
    'the facts a %s key stands for are those of every call with that key',
    (column) => {
      const keys = new Uint16Array(3000);
      callKeysInto(account, column, 0, 3000, keys);
      const facts = new Set(keyedFacts(account, column).map((pair) => JSON.stringify(pair)));
      const fields = KEYED_FIELDS[column];
      for (let i = 0; i < 3000; i++) {
        const call = generateCall(world, account, i);
        const own = Object.fromEntries(fields.map((f) => [f, call[f]]));
        expect(facts.has(JSON.stringify([keys[i], own]))).toBe(true);
      }
    },
  );

  test('growing the counts, or adding and reordering accounts, changes no existing record', () => {
    const small = new World({ seed: 's', clockMs, accounts: [{ friendlyName: 'A', calls: 100, recordings: 40 }] });
    const big = new World({
      seed: 's',
      clockMs,
      accounts: [
        { friendlyName: 'B', calls: 5, recordings: 0 },
        { friendlyName: 'A', calls: 1000, recordings: 700 },
      ],
    });
    const a = small.accounts()[0]!;
    const b = big.accounts()[1]!;
    expect(b.profile).toEqual(a.profile);
    for (let i = 0; i < 100; i++) expect(b.calls.get(i)).toEqual(a.calls.get(i));
    for (let j = 0; j < 40; j++) expect(b.recordings.get(j)).toEqual(a.recordings.get(j));
  });
});

describe('time', () => {
  test('date_created falls strictly as the index grows, and all calls lie before the reference instant', () => {
    let prev = Math.floor(clockMs / 1000);
    for (let i = 0; i < 3000; i++) {
      const start = callStartSec(world, account, i);
      expect(start).toBeLessThan(prev);
      prev = start;
    }
    expect(generateCall(world, account, 0).endMs).toBeLessThan(clockMs);
  });

  test('calls spread over weeks: 448 calls span 2 to 8 weeks', () => {
    const span = (callStartSec(world, account, 0) - callStartSec(world, account, 447)) / 86400;
    expect(span).toBeGreaterThan(14);
    expect(span).toBeLessThan(56);
  });

  test('even 10,000,000 calls stay within two years', () => {
    const p = makeAccountProfile('unit-seed', { friendlyName: 'Huge', calls: 1e7, recordings: 0 }, 0);
    const age = (world.clockSec - callStartSec(world, p, 1e7 - 1)) / 86400;
    expect(age).toBeLessThan(730);
  });

  test('recordings fall strictly in time as the index grows', () => {
    let prev = Infinity;
    for (let j = 0; j < 2000; j++) {
      const r = generateRecording(world, account, j);
      expect(r.createdSec).toBeLessThan(prev);
      prev = r.createdSec;
    }
  });
});

describe('call fields', () => {
  const calls = Array.from({ length: 3000 }, (_, i) => generateCall(world, account, i));

  test('an answered call talks from its answer: duration is the whole seconds from the answer to the end', () => {
    for (const c of calls) {
      if (c.status === 'completed')
        expect(Math.floor((c.endMs - (c.startSec + c.ringSec) * 1000) / 1000)).toBe(c.duration);
    }
  });

  test('observed values dominate; the other production values occur', () => {
    const share = (pred: (c: (typeof calls)[number]) => boolean) => calls.filter(pred).length / calls.length;
    expect(share((c) => c.status === 'completed')).toBeGreaterThan(0.6);
    expect(share((c) => c.direction === 'inbound')).toBeGreaterThan(0.5);
    // not-found is outbound only and rare (1 in 800 calls): counted over more calls, by their sort fields.
    const statuses: string[] = [];
    finish(eachHead(account, 0, 20_000, 'test', (h) => statuses.push(h.status)));
    expect(new Set(statuses)).toEqual(new Set(CALL_STATUSES));
    expect(new Set(calls.map((c) => c.direction))).toEqual(new Set(CALL_DIRECTIONS));
  });

  test('parties are E.164 numbers, bare digits or SIP names, all three occurring', () => {
    const parties = calls.flatMap((c) => [c.from, c.to]);
    for (const p of parties) expect(p).toMatch(/^(\+[1-9][0-9]{9,13}|[0-9]{11}|[a-z0-9._-]+|Anonymous)$/);
    expect(parties.some((p) => /^\+/.test(p))).toBe(true);
    expect(parties.some((p) => /^[0-9]+$/.test(p))).toBe(true);
    expect(parties.some((p) => /^[a-z]/.test(p))).toBe(true);
  });

  test('the inbound side is one of the account numbers, with its phone_number_sid', () => {
    for (const c of calls) {
      const ours = c.direction === 'inbound' ? c.to : c.from;
      const endpoint = account.endpoints.find((e) => e.address === ours);
      expect(endpoint?.phoneNumberSid).toBe(c.phoneNumberSid);
    }
  });

  test('caller names are person names; durations have a long tail', () => {
    expect(calls.every((c) => /^[A-Z]/.test(c.callerName))).toBe(true);
    expect(new Set(calls.map((c) => c.callerName)).size).toBeGreaterThan(1000);
    const talk = calls
      .filter((c) => c.status === 'completed')
      .map((c) => c.duration as number)
      .sort((a, b) => a - b);
    const median = talk[Math.floor(talk.length / 2)]!;
    expect(median).toBeGreaterThan(30);
    expect(median).toBeLessThan(200);
    expect(talk[talk.length - 1]!).toBeGreaterThan(10 * median);
  });

  test('most prices have integer part 0 (production sorts by the cast), a few do not', () => {
    const positive = calls.filter((c) => c.priceInt > 0).length;
    expect(positive).toBeGreaterThan(0);
    expect(positive / calls.length).toBeLessThan(0.2);
  });
});

describe('recordings', () => {
  test('capacity: 6 recordings per 8 calls, whatever the seed', () => {
    expect([0, 1, 2, 5, 6, 7, 8, 9, 50, 448].map(recordingCapacity)).toEqual([0, 1, 2, 5, 6, 6, 6, 7, 38, 336]);
  });

  test('the first n recordings lie on the first calls that capacity promises', () => {
    for (let calls = 1; calls <= 40; calls++) {
      for (let j = 0; j < recordingCapacity(calls); j++) expect(placeRecording(account, j).call).toBeLessThan(calls);
    }
  });

  test('each recording lies inside its call, on a call of the account, 1 to 3 a call', () => {
    const perCall = new Map<number, number>();
    // Whole blocks of recordings, so every call they lie on has all its recordings counted.
    for (let j = 0; j < 333 * RECORDINGS_PER_BLOCK; j++) {
      const r = generateRecording(world, account, j);
      const place = placeRecording(account, j);
      const call = generateCall(world, account, place.call);
      expect(r.callSid).toBe(call.sid);
      expect(call.status).toBe('completed');
      // Inside the talk: after the answer (start_time), by the end.
      const answer = call.startSec + call.ringSec;
      expect(r.createdSec).toBeGreaterThan(answer);
      expect(r.createdSec * 1000).toBeLessThanOrEqual(call.endMs);
      expect(r.duration).toBeLessThanOrEqual(call.duration as number);
      expect(r.duration).toBeLessThanOrEqual(r.createdSec - answer);
      expect(r.duration).toBeGreaterThan(0);
      perCall.set(place.call, (perCall.get(place.call) ?? 0) + 1);
    }
    for (const [c, n] of perCall) {
      expect(n).toBeGreaterThanOrEqual(1);
      expect(n).toBeLessThanOrEqual(MAX_PER_CALL);
      // The layout puts n recordings on the call, and its block's mask (what a call is drawn by) marks it.
      const block = Math.floor(c / CALLS_PER_BLOCK);
      const offset = c % CALLS_PER_BLOCK;
      expect(blockLayout(account, block).filter((x) => x === offset)).toHaveLength(n);
      expect(recordedMask(account, block) & (1 << offset)).not.toBe(0);
    }
    // A share of the calls, not all of them.
    const recorded = perCall.size / ((2000 / 6) * CALLS_PER_BLOCK);
    expect(recorded).toBeGreaterThan(0.25);
    expect(recorded).toBeLessThan(0.75);
  });

  test("a block's recorded mask (remembered for the last block asked) is its layout, whatever was asked before", () => {
    const other = makeAccountProfile('unit-seed', { ...spec, friendlyName: 'Other' }, 1);
    const maskOf = (profile: typeof account, block: number) =>
      blockLayout(profile, block).reduce((mask, offset) => mask | (1 << offset), 0);
    let differs = 0;
    // The same block of two accounts, asked in turn and twice in a row: never the other's answer.
    for (let block = 0; block < 200; block++) {
      for (const profile of [account, other, other, account, account]) {
        expect(recordedMask(profile, block)).toBe(maskOf(profile, block));
      }
      if (maskOf(account, block) !== maskOf(other, block)) differs++;
    }
    expect(differs).toBeGreaterThan(100);
  });

  test('several UTC offsets occur; durations have up to five fractional digits', () => {
    const recs = Array.from({ length: 300 }, (_, j) => generateRecording(world, account, j));
    expect(new Set(recs.map((r) => r.offsetMin)).size).toBeGreaterThan(3);
    expect(recs.some((r) => r.offsetMin === 0)).toBe(true);
    for (const r of recs) expect(Math.round(r.duration * 1e5) / 1e5).toBe(r.duration);
  });
});
