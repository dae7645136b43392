import { CALL_FIELDS, callAsInput, callFromInput } from '../../src/admin/call-input';
import { parseFault } from '../../src/admin/fault-input';
import { recordingAsInput, recordingFromInput } from '../../src/admin/recording-input';
import { DEFAULT_CLOCK } from '../../src/config';
import { problems, ValidationError } from '../../src/errors';
import { type Call, callJson } from '../../src/format/call';
import { isoMillis, parseInstant, rfc2822Date } from '../../src/format/dates';
import { STORED_STATUSES } from '../../src/generators/call-life';
import { type Account, World } from '../../src/store/world';

const clockMs = parseInstant(DEFAULT_CLOCK) as number;
const world = () => new World({ seed: 'unit', clockMs, accounts: [{ friendlyName: 'A', calls: 40, recordings: 20 }] });
const first = (w: World): Account => w.accounts()[0] as Account;
const fails = (fn: () => unknown, path: string, problem: string) =>
  expect(fn).toThrow(new ValidationError(path, problem));

describe('callFromInput: given fields kept, the rest generated to fit', () => {
  const a = first(world());
  const start = Date.UTC(2025, 4, 17, 10) / 1000;

  test('the same insert number gives the same defaults; another gives others', () => {
    expect(callFromInput(a, {}, 'body', 0)).toEqual(callFromInput(a, {}, 'body', 0));
    expect(callFromInput(a, {}, 'body', 1).sid).not.toBe(callFromInput(a, {}, 'body', 0).sid);
  });

  test('start_time and end_time take an ISO instant without milliseconds, or with another zone, as the same instant', () => {
    const printed = callFromInput(
      a,
      { start_time: '2025-05-17T10:00:00.000Z', end_time: '2025-05-17T10:01:30.000Z' },
      'body',
      0,
    );
    for (const [start_time, end_time] of [
      ['2025-05-17T10:00:00Z', '2025-05-17T10:01:30Z'],
      ['2025-05-17T12:00:00+02:00', '2025-05-17T10:01:30Z'],
    ]) {
      expect(callFromInput(a, { start_time, end_time }, 'body', 0)).toEqual(printed);
    }
    // start_time is the answer; the call was created its ring before.
    expect([printed.startSec + printed.ringSec, printed.duration]).toEqual([start, 90]);
  });

  test.each([
    [
      { date_created: rfc2822Date(start), duration: 7, status: 'completed' },
      { startSec: start, duration: 7 },
    ],
    [{ start_time: isoMillis(start * 1000), end_time: isoMillis((start + 90) * 1000 + 250) }, { duration: 90 }],
    [
      { status: 'busy', direction: 'outbound-api', date_created: rfc2822Date(start) },
      { status: 'busy', duration: 0, priceInt: 0 },
    ],
    [{ price: 3.9 }, { priceInt: 3 }],
    [
      { direction: 'inbound', from: 'alice' },
      { direction: 'inbound', from: 'alice' },
    ],
  ])('%j → %j', (input, expected) => {
    const call = callFromInput(a, input, 'body', 0);
    expect(call).toMatchObject(expected);
    const shown = JSON.parse(callJson(call, a.profile.sid)) as Call;
    if (shown.end_time !== undefined) {
      expect(Math.floor((Date.parse(shown.end_time) - Date.parse(shown.start_time)) / 1000)).toBe(shown.duration);
    }
  });

  test.each([
    [{ uri: '/x' }, 'body.uri', problems.derived],
    [{ account_sid: 'AC0' }, 'body.account_sid', problems.fixed(a.profile.sid, 'AC0')],
    [{ status: 'done' }, 'body.status', problems.oneOf(STORED_STATUSES, 'done')],
    [{ start_time: '2025-05-17T10:00:00.500Z' }, 'body.start_time', problems.startTime('2025-05-17T10:00:00.500Z')],
    [{ start_time: '2025-05-17T10:00:00' }, 'body.start_time', problems.startTime('2025-05-17T10:00:00')],
    [{ end_time: '17 May 2025' }, 'body.end_time', problems.instant('17 May 2025')],
    [
      { date_created: 'Sat, 17 May 2025 10:00:00 +0100' },
      'body.date_created',
      problems.callCreated('Sat, 17 May 2025 10:00:00 +0100'),
    ],
    [{ duration: 5, status: 'failed', direction: 'outbound-api' }, 'body.duration', problems.noDuration('FAILED')],
    [
      { end_time: isoMillis(clockMs), status: 'busy', direction: 'outbound-dial' },
      'body.end_time',
      problems.noEndTime('BUSY'),
    ],
    [
      { ring_duration: 3, status: 'completed', direction: 'inbound' },
      'body.ring_duration',
      problems.noRing('completed'),
    ],
    [
      { answered_by: 'bob', status: 'completed', direction: 'outbound-api', to: 'carol' },
      'body.answered_by',
      problems.answeredBy('carol'),
    ],
    [
      { status: 'queued', direction: 'inbound', end_time: isoMillis(clockMs + 60_000) },
      'body.status',
      problems.inboundQueued,
    ],
    [
      { status: 'completed', date_created: rfc2822Date(start), start_time: isoMillis((start - 1) * 1000) },
      'body.start_time',
      problems.notBeforeCreated,
    ],
    [{ sid: a.calls.get(0).sid }, 'body.sid', problems.taken(a.calls.get(0).sid)],
  ])('%j → ValidationError at %s', (input, path, problem) => {
    fails(() => callFromInput(a, input, 'body'), path, problem);
  });

  test('an unknown field names the fields a call may have', () => {
    fails(() => callFromInput(a, { colour: 'red' }, 'body'), 'body.colour', problems.unknownField(CALL_FIELDS));
  });

  test.each([
    { duration: 42, caller_name: 'Zed' },
    { status: 'busy', direction: 'outbound-api' },
    { status: 'no-answer', direction: 'inbound' },
    { status: 'canceled', direction: 'outbound-dial' },
    { status: 'completed', direction: 'outbound-api', ring_duration: 9 },
    { status: 'ringing', direction: 'outbound-api', end_time: '2025-06-01T12:10:00.250Z' },
    { status: 'in-progress', direction: 'inbound', end_time: '2025-06-01T12:10:00.250Z' },
  ])('callAsInput reads back to the same call (a state export round trip): %j', (input) => {
    const call = callFromInput(a, input, 'body', 3);
    expect(callFromInput(a, callAsInput(call), 'x', 3)).toEqual(call);
  });
});

describe('generated fields fit the given ones', () => {
  test.each([
    [{ duration: 60 }, { status: 'completed', duration: 60 }],
    [{ duration: 0 }, { duration: 0 }],
    [{ status: 'no-answer' }, { status: 'no-answer' }],
    [
      { status: 'NO_ANSWER', direction: 'outbound-api' },
      { status: 'no-answer', duration: null },
    ],
    [{ end_time: '2025-06-01T11:59:00.250Z' }, { endMs: Date.UTC(2025, 5, 1, 11, 59, 0, 250) }],
    [
      { start_time: '2025-05-01T10:00:00.000Z', end_time: '2025-05-01T10:02:00.000Z' },
      { status: 'completed', duration: 120 },
    ],
  ])('%j, for every insert number, gives %j', (input, expected) => {
    const w = world();
    const a = first(w);
    // The defaults differ from one insert number to the next (busy, failed, …): none may refuse.
    for (let k = 0; k < 40; k++) expect(callFromInput(a, input, 'body', k)).toMatchObject(expected);
  });

  test('a given end and no start: the start is the talk time before it', () => {
    const a = first(world());
    const call = callFromInput(a, { end_time: '2025-06-01T11:59:00.000Z', duration: 30 }, 'body', 0);
    expect([call.startSec + call.ringSec, call.duration]).toEqual([Date.UTC(2025, 5, 1, 11, 58, 30) / 1000, 30]);
  });

  test.each([
    [{ status: 'busy', direction: 'outbound-api', duration: 5 }, 'body.duration', problems.zeroDuration('BUSY', 5)],
    [
      { status: 'busy', direction: 'inbound', duration: 5, ring_duration: 5 },
      'body.ring_duration',
      problems.noRing('busy'),
    ],
    [
      { duration: 10, end_time: '2025-06-01T11:59:00.000Z', start_time: '2025-06-01T11:58:00.000Z' },
      'body.duration',
      problems.durationSpan(60),
    ],
  ])('what still contradicts is refused: %j', (input, path, problem) => {
    fails(() => callFromInput(first(world()), input, 'body', 0), path, problem);
  });

  test.each([
    [{}],
    [{ status: 'busy' }],
    [{ status: 'canceled' }],
    [{ status: 'completed' }],
    [{ duration: 60 }],
    [{ status: 'no-answer', direction: 'inbound' }],
  ])('a call inserted with no dates, %j, ended at the clock: never after it, created before it', (input) => {
    const w = world();
    const a = first(w);
    for (let k = 0; k < 4; k++) {
      const call = callFromInput(a, input, 'body', a.calls.nextInsert);
      w.insertCalls(a, [call]);
      // A sync keyed on date_updated or end_time never sees the future: both at the clock.
      const shown = JSON.parse(callJson(call, a.profile.sid)) as Call;
      expect(shown.date_updated).toBe(rfc2822Date(clockMs / 1000));
      if (shown.end_time !== undefined) expect(shown.end_time).toBe(isoMillis(clockMs));
      expect(Date.parse(shown.start_time)).toBeLessThanOrEqual(clockMs);
      expect(Date.parse(shown.date_created)).toBeLessThanOrEqual(clockMs);
    }
  });

  test('a call inserted live, with no creation, arrives at the clock and after the calls inserted before it', () => {
    const w = world();
    const a = first(w);
    const end_time = new Date(clockMs + 3_600_000).toISOString();
    const starts = [0, 1, 2].map(() => {
      const call = callFromInput(a, { status: 'ringing', end_time }, 'body', a.calls.nextInsert);
      w.insertCalls(a, [call]);
      return call.startSec;
    });
    expect(starts).toEqual([0, 1, 2].map((d) => clockMs / 1000 + d));
  });

  test('a recording of a given duration is made late enough in its call to hold it', () => {
    const w = world();
    const a = first(w);
    const call = a.calls.get(a.calls.find(a.recordings.get(0).callSid)!);
    for (let k = 0; k < 40; k++) {
      const rec = recordingFromInput(a, { call_sid: call.sid, duration: call.duration }, 'body', k);
      expect(rec.duration).toBe(call.duration);
      expect(rec.createdSec - (call.startSec + call.ringSec)).toBeGreaterThanOrEqual(call.duration as number);
    }
  });
});

describe('recordingFromInput: inside its call', () => {
  const w = world();
  const a = first(w);
  // The call of the first seeded recording: an answered call.
  const answered = a.calls.get(a.calls.find(a.recordings.get(0).callSid)!);
  const unanswered = Array.from({ length: 40 }, (_, i) => a.calls.get(i)).find((c) => c.status !== 'completed')!;

  test('defaults to the newest answered call, and lies inside it', () => {
    const rec = recordingFromInput(a, {}, 'body', 0);
    const call = a.calls.get(a.calls.find(rec.callSid)!);
    expect(call.status).toBe('completed');
    expect(rec.createdSec).toBeGreaterThan(call.startSec + call.ringSec);
    expect(rec.createdSec * 1000).toBeLessThanOrEqual(call.endMs);
    expect(rec.duration).toBeLessThanOrEqual(call.duration as number);
  });

  test.each([
    [{ call_sid: 'nope' }, 'body.call_sid', problems.noCallInAccount('nope', a.profile.sid)],
    [{ sid: 'RE1' }, 'body.sid', problems.string(problems.recordingSid, 'RE1')],
    [{ duration: -1 }, 'body.duration', problems.recordingDuration(-1)],
    // Inside the talk: after the answer, not merely after the creation.
    [
      { call_sid: answered.sid, date_created: rfc2822Date(answered.startSec + answered.ringSec) },
      'body.date_created',
      problems.insideCall(
        answered.sid,
        rfc2822Date(answered.startSec + answered.ringSec),
        rfc2822Date(Math.floor(answered.endMs / 1000)),
      ),
    ],
    [{ call_sid: unanswered.sid }, 'body.call_sid', problems.unansweredCall(unanswered.sid)],
  ])('%j → ValidationError at %s', (input, path, problem) => {
    fails(() => recordingFromInput(a, input, 'body'), path, problem);
  });

  test('recordingAsInput reads back to the same recording', () => {
    const rec = recordingFromInput(a, { call_sid: answered.sid }, 'body', 2);
    expect(recordingFromInput(a, recordingAsInput(rec), 'x', 2)).toEqual(rec);
  });
});

describe('parseFault', () => {
  test.each([
    [
      { path: '/call', status: 503 },
      { path: '/call', status: 503 },
    ],
    [
      { delay_ms: 10, fault: 'connection_reset', times: 2 },
      { delay_ms: 10, fault: 'connection_reset', times: 2 },
    ],
    [{ delay: { distribution: 'uniform', max_ms: 9 } }, { delay: { distribution: 'uniform', min_ms: 0, max_ms: 9 } }],
    [
      { delay: { distribution: 'lognormal', median_ms: 5 } },
      { delay: { distribution: 'lognormal', median_ms: 5, sigma: 0.5 } },
    ],
    [
      { rate_limit: { limit: 2, window_s: 1 }, probability: 0.5 },
      { rate_limit: { limit: 2, window_s: 1 }, probability: 0.5 },
    ],
  ])('%j is kept as %j', (input, spec) => {
    expect(parseFault(input)).toEqual(spec);
  });

  test.each([
    [{}, 'body', problems.needsEffect],
    [{ status: 500, fault: 'empty_response' }, 'body', problems.excludeEachOther('status, fault and rate_limit')],
    [
      { delay_ms: 1, delay: { distribution: 'uniform', max_ms: 2 } },
      'body',
      problems.excludeEachOther('delay_ms and delay'),
    ],
    [{ delay_ms: 1, body: 'x' }, 'body.body', problems.goesWith('status')],
    [{ status: 700 }, 'body.status', problems.intRange(200, 599, 700)],
    [{ path: 'call', status: 500 }, 'body.path', problems.string(problems.path, 'call')],
    [
      { delay: { distribution: 'pareto' } },
      'body.delay.distribution',
      problems.oneOf(['uniform', 'lognormal'], 'pareto'),
    ],
    [{ delay: { distribution: 'uniform' } }, 'body.delay.max_ms', problems.needed],
    [{ rate_limit: { limit: 1 } }, 'body.rate_limit.window_s', problems.needed],
  ])('%j → ValidationError at %s', (input, path, problem) => {
    fails(() => parseFault(input), path, problem);
  });
});
