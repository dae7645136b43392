import { CallbackDesk, callbackHostAllowed, javaUriParses } from '../../src/callbacks/callback-desk';
import {
  callbackParams,
  callbackRequest,
  formEncode,
  jodaTimestamp,
  type Param,
  parseQuery,
  UTC_ZONE,
  type ZoneView,
} from '../../src/format/callback';
import { makeAccountProfile, makeWorldContext } from '../../src/generators/account';
import { callAtClock } from '../../src/generators/call-life';
import type { CallRecord, CallStatus } from '../../src/generators/call-record';
import {
  type CallRequest,
  createdCall,
  dueCallbacks,
  faultedCallbacks,
  userOf,
} from '../../src/generators/created-call';
import { offsetAt } from '../../src/input/zone';

const zoneOf = (name: string): ZoneView => ({ name, offsetMs: (ms) => offsetAt(name, ms) });

const NOW = Date.UTC(2025, 5, 1, 12, 0, 0, 250);
const world = makeWorldContext('callbacks', NOW);
const account = makeAccountProfile('callbacks', { friendlyName: 'Callbacks', calls: 10, recordings: 0 }, 0);
const request = (over: Partial<CallRequest> = {}): CallRequest => ({
  from: '+15126002188',
  to: '+15550001111',
  timeoutSec: 60,
  callback: { url: 'http://127.0.0.1:9/status', method: 'POST' },
  ...over,
});
const make = (k: number, over: Partial<CallRequest> = {}, byTo?: Record<string, CallStatus>) =>
  createdCall(world, account, k, NOW, request(over), byTo === undefined ? undefined : { byTo });

describe('formEncode and parseQuery (Apache HttpClient URLEncodedUtils)', () => {
  test.each<[Param[], string]>([
    [[['From', '+15126002188']], 'From=%2B15126002188'],
    [[['ForwardedFrom', null]], 'ForwardedFrom'],
    [[['Timestamp', 'Sun, 01 Jun 2025 12:00:05 UTC']], 'Timestamp=Sun%2C+01+Jun+2025+12%3A00%3A05+UTC'],
    // Left as they are: letters, digits and _-.*; UTF-8 bytes for the rest.
    [[['a_b-c.d*e', 'é~!']], 'a_b-c.d*e=%C3%A9%7E%21'],
    [
      [
        ['x', ''],
        ['y', 'sip:alice@example.com'],
      ],
      'x=&y=sip%3Aalice%40example.com',
    ],
  ])('%j → %s', (params, text) => expect(formEncode(params)).toBe(text));

  test('a query is read as pairs split on & and ;, with + a space and a bare name a null value', () => {
    expect(parseQuery('a=1&b;c=x+y%21&&=skip&d=%zz')).toEqual([
      ['a', '1'],
      ['b', null],
      ['c', 'x y!'],
      ['d', '%zz'],
    ]);
  });
});

describe('jodaTimestamp (EEE, dd MMM YYYY HH:mm:ss ZZZZ in the server zone)', () => {
  test.each([
    [Date.UTC(2025, 5, 1, 12, 0, 5), 'UTC', 'Sun, 01 Jun 2025 12:00:05 UTC'],
    // ZZZZ is the zone's id, not an offset; the day is zero-padded.
    [Date.UTC(2025, 6, 4, 22, 30, 0), 'Europe/Madrid', 'Sat, 05 Jul 2025 00:30:00 Europe/Madrid'],
    [Date.UTC(2025, 0, 9, 23, 0, 0), '+09:00', 'Fri, 10 Jan 2025 08:00:00 +09:00'],
    [Date.UTC(2025, 0, 9, 23, 0, 0), '-0530', 'Thu, 09 Jan 2025 17:30:00 -05:30'],
  ])('%i in %s → %s', (ms, zone, text) => expect(jodaTimestamp(ms, zoneOf(zone))).toBe(text));
});

describe('callbackParams (Call.dialStatusCallbackParameters)', () => {
  const call = make(0);
  test('the names in production order, CallDuration on completed only', () => {
    const names = (event: Parameters<typeof callbackParams>[2]) =>
      callbackParams(call, account.sid, event, NOW, UTC_ZONE).map(([n]) => n);
    const base = ['InstanceId', 'AccountSid', 'CallSid', 'From', 'To', 'Direction', 'CallerName', 'ForwardedFrom'];
    const tail = ['Timestamp', 'CallbackSource', 'SequenceNumber'];
    expect(names('ringing')).toEqual([...base, 'CallStatus', ...tail]);
    expect(names('completed')).toEqual([...base, 'CallStatus', 'CallDuration', ...tail]);
  });

  test('values: the call, the state, the From user as CallerName, no ForwardedFrom, the sequence by state', () => {
    const params = new Map(callbackParams(call, account.sid, 'answered', NOW, UTC_ZONE));
    expect(params.get('CallSid')).toBe(call.sid);
    expect(params.get('InstanceId')).toBe(call.instanceId);
    expect(params.get('CallerName')).toBe('+15126002188');
    expect(params.get('ForwardedFrom')).toBeNull();
    expect(params.get('CallStatus')).toBe('answered');
    expect(params.get('SequenceNumber')).toBe('2');
    expect(params.get('CallbackSource')).toBe('call-progress-events');
    expect(params.get('Timestamp')).toBe('Sun, 01 Jun 2025 12:00:00 UTC');
  });

  test.each<[CallStatus, string]>([
    ['completed', 'talk'],
    ['canceled', 'ring'],
    ['busy', '0'],
    ['failed', '0'],
  ])('a %s call sends CallDuration = %s', (status, what) => {
    const c = make(1, {}, { '+15550001111': status });
    const duration = new Map(callbackParams(c, account.sid, 'completed', c.endMs, UTC_ZONE)).get('CallDuration');
    const expected =
      what === 'talk'
        ? Math.floor((c.endMs - (c.startSec + c.ringSec) * 1000) / 1000)
        : what === 'ring'
          ? c.ringSec
          : 0;
    expect(duration).toBe(String(expected));
  });

  test('From and To are the user parts of SIP and client addresses', () => {
    expect(userOf('sip:alice@example.com')).toBe('alice');
    expect(userOf('client:bob')).toBe('bob');
    expect(userOf('+15550001111')).toBe('+15550001111');
    const c = make(2, { from: 'sip:alice@example.com', to: 'client:bob' });
    const params = new Map(callbackParams(c, account.sid, 'initiated', NOW, UTC_ZONE));
    expect([params.get('From'), params.get('To'), params.get('CallerName')]).toEqual(['alice', 'bob', 'alice']);
  });
});

describe('callbackRequest (the Downloader)', () => {
  const params: Param[] = [
    ['CallStatus', 'ringing'],
    ['ForwardedFrom', null],
  ];
  test('POST: a UTF-8 form of the parameters, then the URL query; the URL cut to its path', () => {
    const req = callbackRequest(new URL('http://u:p@127.0.0.1:9/s/t?x=1&y#frag'), 'post', params);
    expect(req).toEqual({
      method: 'POST',
      url: 'http://u:p@127.0.0.1:9/s/t',
      headers: {
        'http.protocol.content-charset': 'UTF-8',
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
      },
      body: 'CallStatus=ringing&ForwardedFrom&x=1&y',
    });
  });

  test('GET: everything in the query, no body', () => {
    const req = callbackRequest(new URL('http://127.0.0.1:9/s?x=a+b'), 'Get', params);
    expect(req?.url).toBe('http://127.0.0.1:9/s?CallStatus=ringing&ForwardedFrom&x=a+b');
    expect(req?.body).toBe('');
    expect(req?.headers).toEqual({ 'http.protocol.content-charset': 'UTF-8' });
  });

  test('any other method sends nothing', () => {
    expect(callbackRequest(new URL('http://127.0.0.1:9/s'), 'PUT', params)).toBeUndefined();
  });
});

describe('createdCall', () => {
  test('the same insert number and instant give the same call; another number, another sid', () => {
    expect(make(3)).toEqual(make(3));
    expect(make(4).sid).not.toBe(make(3).sid);
  });

  test('an outbound-api call, created queued at the clock, then ringing a second later', () => {
    const c = make(5, {}, { '+15550001111': 'completed' });
    expect(c.direction).toBe('outbound-api');
    expect(c.startSec).toBe(Math.floor(NOW / 1000));
    expect(callAtClock(c, NOW).live?.status).toBe('queued');
    expect(callAtClock(c, (c.startSec + 1) * 1000).live?.status).toBe('ringing');
    expect(callAtClock(c, (c.startSec + c.ringSec) * 1000).live?.status).toBe('in-progress');
    expect(callAtClock(c, c.endMs).status).toBe('completed');
  });

  test('a To in outcomes_by_to ends as fixed; weights pick among the statuses given', () => {
    expect(make(6, { to: '+1999' }, { '+1999': 'busy' }).status).toBe('busy');
    const only = createdCall(world, account, 7, NOW, request(), { weights: { failed: 1, busy: 0 } });
    expect(only.status).toBe('failed');
  });

  test('a no-answer call rings the whole Timeout', () => {
    const c = make(8, { timeoutSec: 25 }, { '+15550001111': 'no-answer' });
    expect(c.ringSec).toBe(25);
    expect(Math.floor(c.endMs / 1000)).toBe(c.startSec + 25);
  });

  test('over many calls, the outcomes follow the seeded mix (completed about 80%)', () => {
    const statuses = Array.from({ length: 2000 }, (_, k) => make(k).status);
    const completed = statuses.filter((s) => s === 'completed').length / statuses.length;
    expect(completed).toBeGreaterThan(0.75);
    expect(completed).toBeLessThan(0.85);
    expect(new Set(statuses)).toEqual(new Set(['completed', 'no-answer', 'busy', 'failed', 'not-found', 'canceled']));
  });
});

describe('dueCallbacks (which states a call sends, and when)', () => {
  const events = (c: CallRecord) => dueCallbacks(c).map((d) => d.event);
  test.each<[CallStatus, string[]]>([
    ['completed', ['initiated', 'ringing', 'answered', 'completed']],
    ['busy', ['initiated', 'ringing', 'completed']],
    ['canceled', ['initiated', 'ringing', 'completed']],
    // Dialled and refused at once: no ringing.
    ['failed', ['initiated', 'completed']],
    // NoAnswer and NotFound set the status only: no completed.
    ['no-answer', ['initiated', 'ringing']],
    ['not-found', ['initiated']],
  ])('%s → %j', (status, expected) => {
    expect(events(make(9, {}, { '+15550001111': status }))).toEqual(expected);
  });

  test('instants: the request, the ringing second, the answer, the end; in order', () => {
    const c = make(10, {}, { '+15550001111': 'completed' });
    expect(dueCallbacks(c).map((d) => d.atMs)).toEqual([
      NOW,
      (c.startSec + 1) * 1000,
      (c.startSec + c.ringSec) * 1000,
      c.endMs,
    ]);
  });

  test('a call with no StatusCallback sends none', () => {
    expect(dueCallbacks(make(11, { callback: null }))).toEqual([]);
  });
});

describe('where callbacks may go', () => {
  test.each([
    ['127.0.0.1', [], true],
    ['127.8.9.10', [], true],
    ['localhost', [], true],
    ['api.localhost', [], true],
    ['[::1]', [], true],
    ['10.0.0.5', [], false],
    ['hooks.example.com', ['hooks.example.com'], true],
    ['a.hooks.example.com', ['*.example.com'], true],
    ['example.com', ['*.example.com'], false],
    ['evil.com', ['hooks.example.com'], false],
  ])('%s with %j → %s', (host, allowed, ok) => expect(callbackHostAllowed(host, allowed)).toBe(ok));

  test.each([
    ['http://127.0.0.1:9/s?x=1', true],
    ['status', true],
    ['http://127.0.0.1:9/a b', false],
    ['http://127.0.0.1:9/a|b', false],
    ['http://127.0.0.1:9/%zz', false],
    ['http:', false],
    ['', true],
  ])('Java URI %j parses: %s', (text, ok) => expect(javaUriParses(text)).toBe(ok));
});

describe('faultedCallbacks (seeded delivery faults)', () => {
  const answered = make(12, { to: '+15550000001' }, { '+15550000001': 'completed' });
  const due = dueCallbacks(answered);
  const view = (list: ReturnType<typeof faultedCallbacks>) =>
    list.map((d) => `${d.event}${d.fault ? `:${d.fault}` : ''}`);

  test('none: the callbacks as they are', () => {
    expect(faultedCallbacks(due, answered.sid, undefined)).toEqual(due);
    expect(faultedCallbacks(due, answered.sid, {})).toEqual(due);
  });

  test('drop: each is kept in the list, marked, so the journal says what was never sent', () => {
    expect(view(faultedCallbacks(due, answered.sid, { drop: 1 }))).toEqual([
      'initiated:drop',
      'ringing:drop',
      'answered:drop',
      'completed:drop',
    ]);
  });

  test('duplicate: each twice, the copy right after it', () => {
    expect(view(faultedCallbacks(due, answered.sid, { duplicate: 1 }))).toEqual([
      'initiated',
      'initiated:duplicate',
      'ringing',
      'ringing:duplicate',
      'answered',
      'answered:duplicate',
      'completed',
      'completed:duplicate',
    ]);
  });

  test("reorder: a state goes right after its call's next one (never the initiated, sent as the create answers)", () => {
    const reordered = faultedCallbacks(due, answered.sid, { reorder: 1 });
    expect(view(reordered)).toEqual(['initiated', 'ringing:reorder', 'completed', 'answered:reorder']);
    // Each keeps its own Timestamp; ringing goes at the answer, answered at the end.
    const [initiated, ringing, answer, completed] = due as [
      (typeof due)[number],
      (typeof due)[number],
      (typeof due)[number],
      (typeof due)[number],
    ];
    expect(reordered.map((d) => [d.stampMs, d.atMs])).toEqual([
      [initiated.atMs, initiated.atMs],
      [ringing.atMs, answer.atMs],
      [completed.atMs, completed.atMs],
      [answer.atMs, completed.atMs],
    ]);
  });

  test('delay: later on the clock, within max_ms, the Timestamp unchanged', () => {
    const delayed = faultedCallbacks(due, answered.sid, { delay: { probability: 1, max_ms: 5000 } });
    const [first, ...rest] = delayed;
    expect(first).toEqual(due[0]);
    for (const d of rest) {
      const original = due.find((o) => o.event === d.event) as (typeof due)[number];
      expect(d.fault).toBe('delay');
      expect(d.stampMs).toBe(original.atMs);
      expect(d.atMs).toBeGreaterThan(original.atMs);
      expect(d.atMs).toBeLessThanOrEqual(original.atMs + 5000);
    }
  });

  test('the same call meets the same faults every time; over many calls, a share as asked', () => {
    const faults = { drop: 0.3, duplicate: 0.2 };
    expect(faultedCallbacks(due, answered.sid, faults)).toEqual(faultedCallbacks(due, answered.sid, faults));
    let dropped = 0;
    let total = 0;
    for (let k = 0; k < 500; k++) {
      const c = make(k);
      for (const d of faultedCallbacks(dueCallbacks(c), c.sid, faults)) {
        if (d.fault !== 'duplicate') total++;
        if (d.fault === 'drop') dropped++;
      }
    }
    expect(dropped / total).toBeGreaterThan(0.25);
    expect(dropped / total).toBeLessThan(0.35);
  });
});

describe('the callback journal keeps within its budget', () => {
  const deliverDropped = async (entries: number, journalBytes: number) => {
    const desk = new CallbackDesk({ hosts: [], timeoutMs: 100, entries, journalBytes, bodyBytes: 1024, zone: 'UTC' });
    const due = Array.from({ length: 50 }, (_, k) => ({
      accountSid: account.sid,
      call: make(k),
      event: 'initiated' as const,
      atMs: NOW,
      stampMs: NOW,
      fault: 'drop' as const,
    }));
    await desk.deliver(due);
    return desk.entries();
  };
  const newest = (n: number) => Array.from({ length: n }, (_, i) => 50 - n + 1 + i);

  test('by count: the newest 10 of 50', async () => {
    expect((await deliverDropped(10, 1_000_000)).map((e) => e.seq)).toEqual(newest(10));
  });

  test('by bytes: a dropped entry counts 400 for its fields and its error text; the newest that fit', async () => {
    const size = 400 + ((await deliverDropped(1, 1_000_000))[0]?.error?.length ?? 0);
    for (const [budget, kept] of [
      [size * 9, 9],
      [size * 9 + size - 1, 9],
      [size * 10, 10],
    ] as const) {
      const journal = await deliverDropped(1000, budget);
      expect(journal.map((e) => e.seq)).toEqual(newest(kept));
      expect(journal.every((e) => e.fault === 'drop' && e.request === null)).toBe(true);
    }
  });
});
