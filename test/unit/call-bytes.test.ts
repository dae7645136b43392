import { ByteSink, writeNumber } from '../../src/format/byte-sink';
import { callJson, writeCallJson } from '../../src/format/call';
import { isoMillis, rfc2822Date, writeIsoMillis, writeRfc2822 } from '../../src/format/dates';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { generateCall } from '../../src/generators/call';
import { callAtClock } from '../../src/generators/call-life';
import type { CallRecord } from '../../src/generators/call-record';

// A page a walk shows once is written as bytes (writeCallJson) instead of as text: the two must
// never differ by a byte, whatever the call holds.

const world = makeWorldContext('callrec', Date.parse('2025-06-01T00:00:00Z'));
const accounts = [0, 1].map((k) =>
  makeAccountProfile('callrec', { friendlyName: `A${k}`, calls: 200_000, recordings: 0 }, k),
);

/** The call written as bytes into a fresh sink that starts too small, so it grows on the way. */
function bytesOf(call: CallRecord, accountSid: string, sink = new ByteSink(16)): string {
  const before = sink.at;
  writeCallJson(call, accountSid, sink);
  return sink.buf.subarray(before, sink.at).toString('utf8');
}

describe('a call written as bytes', () => {
  test('equals its text for seeded calls of every kind, accounts alternating', () => {
    const seen = new Set<string>();
    for (let k = 0; k < 4000; k++) {
      const account = accounts[k % 2] as (typeof accounts)[number];
      const call = generateCall(world, account, k * 37);
      seen.add(`${call.direction}/${call.status}`);
      expect(bytesOf(call, account.sid)).toBe(callJson(call, account.sid));
    }
    // Every direction and outcome went through it (3 directions, 6 outcomes, inbound never not-found).
    expect(seen.size).toBe(17);
  });

  test('equals its text for a call seen before its end, at each of its states', () => {
    const account = accounts[0] as (typeof accounts)[number];
    let live = 0;
    for (let k = 0; k < 300; k++) {
      const call = generateCall(world, account, k);
      for (const at of [call.startSec * 1000 + 500, (call.startSec + call.ringSec + 1) * 1000, call.endMs - 1]) {
        const shown = callAtClock(call, at);
        if (shown.live !== undefined) live++;
        expect(bytesOf(shown, account.sid)).toBe(callJson(shown, account.sid));
      }
    }
    expect(live).toBeGreaterThan(300);
  });

  test.each([
    ['a quote and a backslash', 'say "hi" \\ bye'],
    ['control characters', 'tab\there\nnew\u0001'],
    ['non-ASCII', 'José Müller 名前 😀'],
    ['a lone surrogate', 'broken \ud800 name'],
    ['an empty name', ''],
  ])('equals its text for an inserted call with %s in its texts', (_, text) => {
    const account = accounts[1] as (typeof accounts)[number];
    const base = generateCall(world, account, 5);
    const call: CallRecord = { ...base, callerName: text, from: text, to: `${text}x` };
    expect(bytesOf(call, account.sid)).toBe(callJson(call, account.sid));
  });

  test.each([
    ['no duration', { duration: null, direction: 'outbound-api', status: 'failed' }],
    ['a zero duration', { duration: 0, direction: 'outbound-dial', status: 'busy', ringSec: 0 }],
    ['a long duration', { duration: 1_234_567, direction: 'outbound-api', status: 'completed', ringSec: 59 }],
    ['an end on a whole second', { endMs: 1_700_000_000_000 }],
    ['an end 5 ms past a second', { endMs: 1_700_000_000_005 }],
    ['an end 50 ms past a second', { endMs: 1_700_000_000_050 }],
    ['an end 999 ms past a second', { endMs: 1_700_000_000_999 }],
    ['an end not in whole milliseconds', { endMs: 1_700_000_000_000.5 }],
    ['a creation at the epoch', { startSec: 0, endMs: 1000 }],
  ] as const)('equals its text for a call with %s', (_, change) => {
    const account = accounts[0] as (typeof accounts)[number];
    const call = { ...generateCall(world, account, 11), ...change } as CallRecord;
    expect(bytesOf(call, account.sid)).toBe(callJson(call, account.sid));
  });

  test('a sink keeps what it holds as it grows: a page of calls equals the texts joined', () => {
    const account = accounts[0] as (typeof accounts)[number];
    const sink = new ByteSink(8);
    sink.text('{"calls":[');
    const texts: string[] = [];
    for (let k = 0; k < 60; k++) {
      if (k > 0) sink.bytes(Buffer.from(','));
      const call = generateCall(world, account, 1000 + k);
      writeCallJson(call, account.sid, sink);
      texts.push(callJson(call, account.sid));
    }
    sink.text(']}');
    expect(sink.view().toString('utf8')).toBe(`{"calls":[${texts.join(',')}]}`);
  });
});

describe('numbers and dates written as bytes', () => {
  const written = (write: (out: Buffer, at: number) => number) => {
    const out = Buffer.alloc(64, 0x23);
    const end = write(out, 3);
    return out.subarray(3, end).toString('latin1');
  };

  test.each([0, 7, 9, 10, 99, 100, 1234, 99_999, 2 ** 31 - 1, 2 ** 31, -1, 1.5, 1e21])(
    'writeNumber(%p) writes the number as String() does',
    (n) => {
      expect(written((out, at) => writeNumber(out, at, n))).toBe(`${n}`);
    },
  );

  test.each([0, 59, 86_399, 86_400, 951_782_400, 1_373_062_553, 1_709_251_199, 4_102_444_800, 1.5])(
    'writeRfc2822(%p) writes rfc2822Date',
    (sec) => {
      expect(written((out, at) => writeRfc2822(out, at, sec))).toBe(rfc2822Date(sec));
    },
  );

  test.each([0, 1, 999, 1_373_062_553_000, 1_373_062_553_007, 1_373_062_553_070, 1_709_251_199_999, 12.25])(
    'writeIsoMillis(%p) writes isoMillis',
    (ms) => {
      expect(written((out, at) => writeIsoMillis(out, at, ms))).toBe(isoMillis(ms));
    },
  );
});
