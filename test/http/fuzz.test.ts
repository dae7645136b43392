import fc from 'fast-check';
import request from 'supertest';
import { byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

const { app, world } = makeEmulator();
const big = byCalls(world, 448);
const empty = byCalls(world, 0);

// Names the lists read, in and out of case, plus noise; values that parse, almost parse and don't.
const name = fc.constantFrom(
  'Page',
  'PageSize',
  'SortBy',
  'AfterSid',
  'page',
  'pagesize',
  'sortby',
  'PAGE',
  'X',
  '',
  'To',
  'From',
  'Status',
  'StartTime',
  'EndTime',
  'CallSid',
  'ParentCallSid',
);
const value = fc.oneof(
  fc.integer({ min: -5, max: 20 }).map(String),
  fc.constantFrom('0', '1', '50', '99999999', '2147483647', '2147483648', '1e3', '0x1', '+3', '-0', ''),
  fc.constantFrom(
    '2025-05-20',
    '2025-02-30',
    '%',
    '_',
    '-',
    '\\',
    '[',
    '(',
    'a-b',
    '%2188',
    'DateCreated',
    'From:desc',
    'To:ASC',
    'Price:',
    ':asc',
    'Duration:asc:x',
    'CallSid:desc',
    'x:y:z',
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const pair = fc.tuple(name, value).map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`);
const rawNoise = fc.constantFrom('%', '%ZZ', '&&', '=', '==', '%00', '%C0%AF', '?', '#', '[]=1', 'Page[]=1');
const query = fc.array(fc.oneof(pair, rawNoise), { maxLength: 6 }).map((parts) => parts.join('&'));

const authHeader = fc.oneof(
  fc.constant<string | undefined>(undefined),
  fc.constant(`Basic ${Buffer.from(`${big.token}:`).toString('base64')}`),
  fc.constant(`Basic ${Buffer.from(`${empty.token}:x`).toString('base64')}`),
  fc.string({ maxLength: 30 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
  fc.string({ maxLength: 30 }).map((s) => `Basic ${s}`),
  fc.constantFrom('Basic', 'Basic ', 'Bearer x', 'basic Og==', 'Basic Og==', 'Basic ====', 'Digest a=b'),
);
const path = fc.constantFrom(
  callsPath(big.sid),
  recordingsPath(big.sid),
  callsPath(empty.sid),
  recordingsPath(empty.sid),
  callsPath(big.sid).replace('.json', ''),
  '/call/2012-04-24/Accounts/%ZZ/Calls.json',
  '/call/2012-04-24/Accounts/%E0%A4%A/Recordings.json',
);
const anyPath = fc.oneof(
  path,
  fc.string({ maxLength: 40 }).map((s) => `/call/2012-04-24/Accounts/${encodeURIComponent(s)}/Calls.json`),
);

describe('nothing a client sends gets a 5xx', () => {
  test('random query strings and Authorization headers on both lists', async () => {
    await fc.assert(
      fc.asyncProperty(anyPath, query, authHeader, async (p, q, auth) => {
        let req = request(app).get(q === '' ? p : `${p}?${q}`);
        if (auth !== undefined) req = req.set('Authorization', auth);
        const res = await req;
        expect(res.status).toBeLessThan(500);
        expect(res.headers['content-type']).toBe('application/json');
        const body = JSON.parse(res.text) as Record<string, unknown>;
        if (res.status >= 400) expect(typeof body['message']).toBe('string');
        else expect(typeof body['total']).toBe('number');
      }),
      { numRuns: 400, seed: 20261122 },
    );
  });

  test('random sids, suffixes and Range headers on single records, sub-lists and audio', async () => {
    const callSid = big.store.calls.get(3).sid;
    const recSid = big.store.recordings.get(2).sid;
    const base = `/call/2012-04-24/Accounts/${big.sid}`;
    const sid = fc.oneof(
      fc.constantFrom(callSid, recSid, `${callSid}x`, 'RE', '%ZZ', '..'),
      fc.string({ maxLength: 70 }).map(encodeURIComponent),
    );
    const tail = fc.constantFrom('.json', '', '/Recordings.json', '/Notifications.json', '.wav', '.xml', '/');
    const kind = fc.constantFrom('Calls', 'Recordings');
    const range = fc.oneof(
      fc.constant<string | undefined>(undefined),
      fc.string({ maxLength: 20 }).map((x) => `bytes=${x}`),
      fc.constantFrom('bytes=0-', 'bytes=-0', 'bytes=5-2', 'bytes=99999999-', 'items=0-5'),
    );
    await fc.assert(
      fc.asyncProperty(kind, sid, tail, range, query, async (k, s, t, r, q) => {
        let req = request(app)
          .get(`${base}/${k}/${s}${t}${q === '' ? '' : `?${q}`}`)
          .auth(big.token, '');
        if (r !== undefined) req = req.set('Range', r);
        const res = await req;
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 300, seed: 5 },
    );
  });
});
