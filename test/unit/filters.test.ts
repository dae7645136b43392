import { messages } from '../../src/errors';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { generateCall } from '../../src/generators/call';
import { MAX_CALL_SEC } from '../../src/generators/call-draws';
import { shownEndMs, shownStartSec } from '../../src/generators/call-life';
import type { CallFacts, CallRecord } from '../../src/generators/call-record';
import {
  buildFilter,
  CALL_FILTERS,
  likePattern,
  parseDay,
  RECORDING_FILTERS,
  remembered,
} from '../../src/query/filters';
import { CALL_KIND } from '../../src/store/calls';
import { finish } from '../../src/store/order';

const callFilter = (values: Map<string, string>) => buildFilter(CALL_FILTERS, values);
const recordingFilter = (values: Map<string, string>) => buildFilter(RECORDING_FILTERS, values);

describe('likePattern (SQL LIKE, as production hands values to the database)', () => {
  test.each([
    ['%1512600%', '+15126002188', true],
    ['%1512600%', '+15120002188', false],
    ['%2188', '+15126002188', true],
    ['+1512%', '+15126002188', true],
    ['%+1512%', '15126002188', false],
    ['completed', 'completed', true],
    ['complete', 'completed', false],
    ['comp%', 'completed', true],
    ['a_ice', 'alice', true],
    ['a_ice', 'aalice', false],
    ['%', '', true],
    // Under production's database collation: case and accents aside, trailing spaces kept.
    ['Alice', 'alice', true],
    ['%JOSE', 'María José', true],
    ['alice', 'alice ', false],
    ['alice%', 'ALICE ', true],
    ['a.c', 'abc', false],
    ['(x)', '(x)', true],
  ])('%s ~ %s → %s', (pattern, value, match) => {
    expect(likePattern(pattern)(value)).toBe(match);
  });
});

describe('parseDay (yyyy-MM-dd, the rest ignored)', () => {
  test.each([
    ['2013-08-23', Date.UTC(2013, 7, 23)],
    ['2013-08-23 14:30:07.820000000', Date.UTC(2013, 7, 23)],
    ['2013-8-3', Date.UTC(2013, 7, 3)],
    ['2024-02-29T23:59:59Z', Date.UTC(2024, 1, 29)],
    // Lenient, as production's SimpleDateFormat: fields past their range roll over.
    ['2013-13-01', Date.UTC(2014, 0, 1)],
    ['2013-02-30', Date.UTC(2013, 2, 2)],
    ['2023-02-29', Date.UTC(2023, 2, 1)],
    ['2025-05-00', Date.UTC(2025, 3, 30)],
    ['2024-17-05', Date.UTC(2025, 4, 5)],
    ['99999999-01-01', Number.POSITIVE_INFINITY],
  ])('%s', (value, ms) => expect(parseDay('StartTime', value)).toBe(ms));

  test('a day-month-year value is a date in antiquity, as production reads it: year 23 and 2013 days', () => {
    const ms = parseDay('StartTime', '23-08-2013');
    expect(new Date(ms).getUTCFullYear()).toBe(29);
  });

  test.each(['', 'yesterday', '2013/08/23', 'x2013-08-23', '2013-08'])('%j → 400', (value) => {
    expect(() => parseDay('EndTime', value)).toThrow(
      expect.objectContaining({ status: 400, message: messages.badDay('EndTime', value) }) as Error,
    );
  });
});

const call = (over: Partial<CallRecord>): CallRecord => ({
  sid: 'ID1-CA1',
  instanceId: 'ID1',
  phoneNumberSid: 'PN1',
  callerName: 'Alice',
  to: '+15126002188',
  from: 'alice',
  direction: 'inbound',
  status: 'completed',
  startSec: Date.UTC(2025, 4, 20, 10) / 1000,
  ringSec: 0,
  endMs: Date.UTC(2025, 4, 20, 10, 5),
  duration: 300,
  priceInt: 0,
  ...over,
});

describe('callFilter', () => {
  const f = (params: Record<string, string>) => callFilter(new Map(Object.entries(params)));

  test('no filter parameters, no filter', () => expect(f({})).toBeNull());

  test.each([
    [{ To: '2188' }, call({}), true],
    [{ To: '1512600%' }, call({}), true],
    [{ To: '1512600' }, call({}), false],
    [{ From: 'ice' }, call({}), true],
    [{ From: 'al' }, call({}), false],
    [{ Status: 'completed' }, call({}), true],
    [{ Status: 'busy' }, call({}), false],
    // MariaDB's collation: LIKE in any case, `_` any one character.
    [{ Status: 'COMPLETED' }, call({}), true],
    [{ Status: 'Complete_' }, call({}), true],
    // The text production stores: an outbound call's NO_ANSWER, an inbound call's no-answer.
    [{ Status: 'no_answer' }, call({ status: 'no-answer' }), true],
    [{ Status: 'no_answer' }, call({ status: 'no-answer', direction: 'outbound-api' }), true],
    [{ Status: 'no-answer' }, call({ status: 'no-answer', direction: 'outbound-api' }), false],
    [{ Status: 'NO-ANSWER' }, call({ status: 'no-answer' }), true],
    [{ ParentCallSid: '%' }, call({}), false],
    [{ ConferenceSid: 'CF1' }, call({}), false],
    [{ StartTime: '2025-05-20' }, call({}), true],
    [{ StartTime: '2025-05-21' }, call({}), false],
    [{ EndTime: '2025-05-20' }, call({}), true],
    [{ EndTime: '2025-05-19' }, call({}), false],
    // The whole day is included: a call that ends at the next midnight exactly is kept.
    [{ EndTime: '2025-05-20' }, call({ endMs: Date.UTC(2025, 4, 21) }), true],
    // end_time is stored in a DATETIME, whole seconds: a call ending 1 ms past midnight is
    // stored at midnight and kept, one ending a second past it is not.
    [{ EndTime: '2025-05-20' }, call({ endMs: Date.UTC(2025, 4, 21) + 1 }), true],
    [{ EndTime: '2025-05-20' }, call({ endMs: Date.UTC(2025, 4, 21) + 1000 }), false],
    [{ StartTime: '2025-05-20' }, call({ startSec: Date.UTC(2025, 4, 20) / 1000 }), true],
    [{ StartTime: '2025-05-20' }, call({ startSec: Date.UTC(2025, 4, 20) / 1000 - 1 }), false],
    [{ To: '2188', Status: 'busy' }, call({}), false],
    // start_time is the answer: created before midnight, answered after it.
    [{ StartTime: '2025-05-20' }, call({ startSec: Date.UTC(2025, 4, 20) / 1000 - 5, ringSec: 5 }), true],
    [{ StartTime: '2025-05-20' }, call({ startSec: Date.UTC(2025, 4, 20) / 1000 - 5, ringSec: 4 }), false],
    // An unanswered call's start_time stays at its creation.
    [
      { StartTime: '2025-05-20' },
      call({ startSec: Date.UTC(2025, 4, 20) / 1000 - 5, ringSec: 9, status: 'canceled' }),
      false,
    ],
    // An outbound call that ended busy has no end_time: NULL is never <= a day.
    [{ EndTime: '2025-05-20' }, call({ status: 'busy', direction: 'outbound-api', duration: 0 }), false],
    [{ EndTime: '2025-05-20' }, call({ status: 'busy', duration: 300 }), true],
    [{ EndTime: '2025-05-20' }, call({ live: { status: 'in-progress', updatedSec: 0 } }), false],
    [{ To: '2188', From: 'alice', StartTime: '2025-05-01', EndTime: '2025-05-31' }, call({}), true],
  ])('%j on a call → %s', (params, c, kept) => {
    expect(f(params)!.test(c)).toBe(kept);
  });

  test('the cache key does not depend on parameter order', () => {
    expect(f({ To: '1', From: '2' })!.key).toBe(f({ From: '2', To: '1' })!.key);
  });
});

describe('recordingFilter', () => {
  const r = { callSid: 'ID1-CA2', createdSec: Date.UTC(2015, 0, 8, 8, 51, 7) / 1000 };
  test.each([
    [{ CallSid: 'ID1-CA2' }, true],
    [{ CallSid: 'ID1-CA3' }, false],
    [{ StartTime: '2015-01-08 08:51:07.955000' }, true],
    [{ StartTime: '2015-01-09' }, false],
    [{ EndTime: '2015-01-08' }, true],
    [{ EndTime: '2015-01-07' }, false],
  ])('%j → %s', (params, kept) => {
    expect(recordingFilter(new Map(Object.entries(params)))!.test(r)).toBe(kept);
  });
});

describe('a filter of seeded calls reads From, To and Status from key columns, the rest from each call', () => {
  const world = makeWorldContext('filters', Date.UTC(2025, 5, 1));
  const account = makeAccountProfile('filters', { friendlyName: 'F', calls: 4000, recordings: 3000 }, 0);
  const n = 4000;
  const calls = Array.from({ length: n }, (_, i) => generateCall(world, account, i));
  test.each([
    [{ From: '%1%' }, [['from']]],
    [{ To: '5' }, [['to']]],
    [{ Status: 'completed' }, [['direction', 'status', 'live', 'swept', 'row']]],
    [{ Status: 'no_answer', From: '%2%' }, [['direction', 'status', 'live', 'swept', 'row'], ['from']]],
    // Only production's own rows have a parent: a seeded call is answered without being read.
    [{ ParentCallSid: 'CA1' }, [['row']]],
    [{ StartTime: '2025-05-20' }, [undefined]],
    [{ EndTime: '2025-05-20', To: '%3%' }, [undefined, ['to']]],
    [
      { Status: 'BUSY', To: '%1%', StartTime: '2025-05-20' },
      [['direction', 'status', 'live', 'swept', 'row'], ['to'], undefined],
    ],
  ])('%j reads %j, and keeps what the whole record would', (given, reads) => {
    const filter = callFilter(new Map(Object.entries(given)))!;
    expect(filter.parts?.map((p) => p.reads)).toEqual(reads);
    const marks = finish(CALL_KIND.keep!(world, account, n, filter));
    const expected = calls.map((c) => (filter.test(c) ? 1 : 0));
    expect(Array.from(marks)).toEqual(expected);
    // Each case keeps some calls and leaves some, but the ones that keep none by rule.
    if (!('ParentCallSid' in given)) expect(new Set(expected)).toEqual(new Set([0, 1]));
  });

  // StartTime and EndTime are answered from the calls' starts for all but the calls near the
  // bound: put the bound at every edge of some calls' times, where the rules are tightest.
  test.each(['startFrom', 'endBy'] as const)(
    'a %s bound keeps what its test on each call would, at every edge',
    (time) => {
      const HOUR = 3600 * 1000;
      const offsets = [-1001, -1, 0, 1, 999, 59_000, 60_001, -MAX_CALL_SEC * 1000, MAX_CALL_SEC * 1000 + 999, 4 * HOUR];
      for (const k of [0, 1, 17, 500, 1999, 3998, 3999]) {
        const call = calls[k]!;
        for (const offset of offsets) {
          const ms = (time === 'startFrom' ? shownStartSec(call) * 1000 : call.endMs) + offset;
          const test =
            time === 'startFrom'
              ? (c: CallFacts) => shownStartSec(c) * 1000 >= ms
              : (c: CallFacts) => (shownEndMs(c) ?? Number.POSITIVE_INFINITY) <= ms;
          const marks = finish(
            CALL_KIND.keep!(world, account, n, { key: `${time}${ms}`, test, parts: [{ test, bound: { time, ms } }] }),
          );
          expect(Array.from(marks)).toEqual(calls.map((c) => (test(c) ? 1 : 0)));
        }
      }
    },
  );

  test('a memo of texts answers as the test does, past its size too', () => {
    const test = remembered((t) => t.endsWith('7'));
    for (let r = 0; r < 2; r++) for (let i = 0; i < 70_000; i += 7) expect(test(String(i))).toBe(i % 10 === 7);
  });
});
