import fc from 'fast-check';
import request from 'supertest';
import { byCalls, callsPath, makeEmulator } from '../support/app';

/**
 * Fuzzed admin bodies: any JSON (deep and huge included) and text that is not JSON, on every
 * admin route that reads a body. None may answer 5xx, and every 4xx says why in {"message"};
 * the API still answers after each.
 */
const { app, world } = makeEmulator();
const a = byCalls(world, 50);
const paths = [
  ['POST', '/__admin/seed'],
  ['POST', '/__admin/accounts'],
  ['POST', `/__admin/accounts/${a.sid}/calls`],
  ['POST', `/__admin/accounts/${a.sid}/recordings`],
  ['POST', '/__admin/faults'],
  ['POST', '/__admin/provider-states'],
  ['PUT', '/__admin/state'],
  ['POST', '/__admin/sandboxes'],
  ['POST', '/__admin/clock'],
] as const;

/** Values that look like the fields the admin API reads, and values that do not. */
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'completed',
    'busy',
    'x',
    '',
    'Fri, 5 Jul 2013 22:15:53 +0000',
    '2013-07-05T22:15:53.000Z',
    60,
    -1,
    1e308,
    // Objects whose own members shadow Object's: String() of one throws (a 500 in seven places once).
    { toString: {} },
    { valueOf: {}, toString: {} },
    { toJSON: 1 },
  ),
  fc.integer({ min: 1, max: 200 }).map((d) => JSON.parse(`${'['.repeat(d)}1${']'.repeat(d)}`) as unknown),
);
const fieldName = fc.constantFrom(
  'seed',
  'fixtures',
  'clock',
  'friendly_name',
  'calls',
  'recordings',
  'token',
  'sid',
  'status',
  'duration',
  'date_created',
  'start_time',
  'end_time',
  'call_sid',
  'from',
  'to',
  'path',
  'delay_ms',
  'delay',
  'body',
  'rate_limit',
  'state',
  'params',
  'action',
  'format',
  'accounts',
  'name',
  'ttl_s',
  'account',
  'now',
  'sandbox_of',
  'data_of',
  'traffic',
  'advance',
  '__proto__',
  'constructor',
);
const body = fc.oneof(
  fc.dictionary(fieldName, fieldValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
  fc.array(fc.dictionary(fieldName, fieldValue, { maxKeys: 4 }), { maxLength: 4 }).map((o) => JSON.stringify(o)),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.integer({ min: 60, max: 20_000 }).map((d) => `{"status":500,"body":${'['.repeat(d)}${']'.repeat(d)}}`),
  fc.integer({ min: 1, max: 3 }).map((mb) => JSON.stringify({ friendly_name: 'x'.repeat(mb * 1024 * 1024) })),
  fc.string({ maxLength: 40 }),
  // A sandbox forked from a state whose account is anything.
  fc
    .record({
      seed: fc.oneof(fc.string({ maxLength: 8 }), fieldValue),
      clock: fc.constantFrom('2025-06-01T12:00:00Z', 'x', 1, '2025-06-01T11:00:00Z'),
      now: fc.constantFrom(undefined, '2025-06-01T13:00:00Z', '2020-01-01T00:00:00Z', 'y'),
      account: fc.oneof(fc.dictionary(fieldName, fieldValue, { maxKeys: 6 }), fieldValue),
    })
    .map((state) => JSON.stringify({ from: { format: 1, ...state } })),
  fc.constantFrom('{', '[', '{"a":', '\u0000', '{"a":1}{"b":2}', 'null', '"x"', '1e999'),
);

describe('fuzzed admin bodies', () => {
  test('never 5xx; 4xx with a message; the API answers after each', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...paths), body, async ([method, path], text) => {
        const req = method === 'POST' ? request(app).post(path) : request(app).put(path);
        const res = await req.set('Content-Type', 'application/json').send(text);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(typeof res.body.message).toBe('string');
        expect((await request(app).get(callsPath(a.sid)).auth(a.token, '')).status).toBeLessThan(500);
        // Forced: a fuzzed body may have made a sandbox, which a plain reset would refuse to end.
        await request(app).post('/__admin/reset?force=true').type('json');
      }),
      { seed: 41, numRuns: 400 },
    );
  });
});
