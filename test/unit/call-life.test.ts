import { callJson } from '../../src/format/call';
import { isoMillis, rfc2822Date } from '../../src/format/dates';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { generateCall } from '../../src/generators/call';
import { callAtClock } from '../../src/generators/call-life';
import { CALL_STATUSES, type CallRecord } from '../../src/generators/call-record';
import { trafficOutcome } from '../../src/generators/traffic';
import { CALL_MEMBER_ORDER } from '../support/app';

// The rules of restcomm-call-life.md, written out here a second time and independently of
// generators/call-life.ts: what production's record of a call holds at each instant.

const ENUM_NAME: Record<string, string> = {
  queued: 'QUEUED',
  ringing: 'RINGING',
  busy: 'BUSY',
  'no-answer': 'NO_ANSWER',
  failed: 'FAILED',
  'not-found': 'NOT_FOUND',
};

/** What production's record of `call` holds at `nowMs`, from the call's hidden times alone. */
function expected(call: CallRecord, nowMs: number): Record<string, unknown> {
  const c = call.startSec;
  const answerSec = c + call.ringSec;
  const e = call.endMs;
  const outbound = call.direction !== 'inbound';
  const answered = call.status === 'completed';
  const spell = (state: string) => (outbound ? (ENUM_NAME[state] ?? state) : state);
  const out: Record<string, unknown> = {};
  if (nowMs >= e) {
    out.status = spell(call.status);
    out.start_time = isoMillis((answered ? answerSec : c) * 1000);
    out.date_updated = rfc2822Date(Math.floor(e / 1000));
    const endless = outbound && !answered && call.status !== 'canceled';
    // A MariaDB DATETIME holds whole seconds: the call ends at e, its end_time is e's second.
    if (!endless) out.end_time = isoMillis(Math.floor(e / 1000) * 1000);
    if (answered) out.duration = Math.floor((e - answerSec * 1000) / 1000);
    else if (!outbound || call.status === 'canceled') out.duration = Math.floor((e - c * 1000) / 1000);
    else if (call.status === 'busy') out.duration = 0;
    if (outbound && answered) {
      out.ring_duration = call.ringSec;
      out.answered_by = call.to;
    }
    if (outbound && call.status === 'busy') out.ring_duration = Math.floor((e - c * 1000) / 1000);
    return out;
  }
  const sec = Math.floor(nowMs / 1000);
  const talking = answered && sec >= answerSec;
  const rang = outbound && sec >= c + 1;
  out.status = talking ? 'in-progress' : rang ? 'RINGING' : outbound ? 'QUEUED' : 'ringing';
  out.start_time = isoMillis((talking ? answerSec : c) * 1000);
  out.date_updated = rfc2822Date(talking ? answerSec : rang ? c + 1 : c);
  if (outbound && talking) {
    out.ring_duration = call.ringSec;
    out.answered_by = call.to;
  }
  return out;
}

/** The wire record's members that the life decides, and its key order against the converter's. */
function lifeOf(wire: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(wire);
  expect(keys).toEqual(CALL_MEMBER_ORDER.filter((k) => keys.includes(k)));
  const picked: Record<string, unknown> = {};
  for (const k of ['status', 'start_time', 'date_updated', 'end_time', 'duration', 'ring_duration', 'answered_by']) {
    if (k in wire) picked[k] = wire[k];
  }
  return picked;
}

const world = makeWorldContext('call-life', Date.UTC(2025, 5, 1, 12));
const account = makeAccountProfile('call-life', { friendlyName: 'Life', calls: 0, recordings: 0 }, 0);
const T = { callsPerHour: 3600 };
const wire = (call: CallRecord) => JSON.parse(callJson(call, account.sid)) as Record<string, unknown>;

describe("a call's life, replayed second by second", () => {
  // One call of live traffic for each final state and side, short enough to replay whole.
  const samples = new Map<string, number>();
  for (let j = 0; j < 20_000 && samples.size < 11; j++) {
    const c = trafficOutcome(world, account, T, j);
    const key = `${c.direction === 'inbound' ? 'inbound' : 'outbound'} ${c.status}`;
    if (!samples.has(key) && c.endMs - c.startSec * 1000 < 900_000) samples.set(key, j);
  }

  test('every final state occurs on both sides (inbound never not-found)', () => {
    const want = CALL_STATUSES.flatMap((s) => [`outbound ${s}`, ...(s === 'not-found' ? [] : [`inbound ${s}`])]);
    expect([...samples.keys()].sort()).toEqual(want.sort());
  });

  test.each(['inbound', 'outbound'].flatMap((side) => CALL_STATUSES.map((s) => `${side} ${s}`)))('%s', (key) => {
    const j = samples.get(key);
    if (key === 'inbound not-found') return expect(j).toBeUndefined();
    const final = trafficOutcome(world, account, T, j as number);
    const from = final.startSec * 1000;
    const statuses: string[] = [];
    // Each second of its life, the millisecond before its end, its end, and after.
    const instants = [];
    for (let t = from; t < final.endMs; t += 1000) instants.push(t, t + 999);
    instants.push(final.endMs - 1, final.endMs, final.endMs + 60_000);
    for (const now of instants.filter((t) => t < final.endMs || t >= final.endMs)) {
      const shown = wire(callAtClock(trafficOutcome(world, account, T, j as number), now));
      expect([now, lifeOf(shown)]).toEqual([now, expected(final, now)]);
      if (statuses[statuses.length - 1] !== shown.status) statuses.push(shown.status as string);
    }
    // The path it took, for the reader: an answered outbound call goes QUEUED, RINGING, in-progress, completed.
    expect(statuses[statuses.length - 1]).toBe(expected(final, Number.POSITIVE_INFINITY).status);
    if (final.status === 'completed') expect(statuses).toContain('in-progress');
  });
});

describe('seeded history ends as production writes calls', () => {
  const seeded = makeAccountProfile('call-life', { friendlyName: 'History', calls: 4000, recordings: 3000 }, 1);
  const calls = Array.from({ length: 4000 }, (_, i) => generateCall(world, seeded, i));

  test('every call, every member the life decides', () => {
    for (const call of calls) expect(lifeOf(JSON.parse(callJson(call, seeded.sid)))).toEqual(expected(call, Infinity));
  });

  test('every final state and both spellings occur; answered calls rang', () => {
    const shown = new Set(calls.map((c) => wire(c).status));
    for (const s of [
      'completed',
      'no-answer',
      'busy',
      'failed',
      'canceled',
      'NO_ANSWER',
      'BUSY',
      'FAILED',
      'NOT_FOUND',
    ]) {
      expect(shown).toContain(s);
    }
    const outboundAnswered = calls.filter((c) => c.direction !== 'inbound' && c.status === 'completed');
    expect(outboundAnswered.some((c) => c.ringSec >= 3)).toBe(true);
  });
});
