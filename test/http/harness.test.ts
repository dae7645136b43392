import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { messages, problems } from '../../src/errors';
import { BODY_BYTES, RECENT_BODIES } from '../../src/journal/journal';
import { authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

type Item = Record<string, any>;

describe('the request journal', () => {
  test('records API requests newest first, with status, account, duration and warnings; not admin ones', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await authGet(app, `${callsPath(a.sid)}?Page=1`, a.token);
    await authGet(app, `${callsPath(a.sid)}?Page=1`, a.token); // from the response cache
    await authGet(app, `${recordingsPath(a.sid)}?pagesize=2`, a.token);
    await request(app).get(callsPath(a.sid));
    await request(app).get('/__admin/accounts');
    const res = await request(app).get('/__admin/requests');
    const entries = res.body.requests as Item[];
    expect(entries.map((e) => e.status)).toEqual([401, 200, 200, 200]);
    expect(entries[1]).toMatchObject({
      method: 'GET',
      path: recordingsPath(a.sid),
      query: 'pagesize=2',
      account: a.sid,
      fault: null,
    });
    expect(entries[1]!.warnings[0]).toContain('did you mean PageSize?');
    expect(entries[2]!.query).toBe('Page=1');
    expect(typeof entries[0]!.duration_ms).toBe('number');
    expect(Date.parse(entries[0]!.time)).not.toBeNaN();
  });

  test('filters: account, path prefix, status, since, limit; bad filters are 400', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const b = byCalls(world, 50);
    await authGet(app, callsPath(a.sid), a.token);
    await authGet(app, recordingsPath(b.sid), b.token);
    await authGet(app, `${callsPath(b.sid)}?Page=99`, b.token);
    const q = async (query: string) => (await request(app).get(`/__admin/requests?${query}`)).body.requests as Item[];
    expect((await q(`account=${b.sid}`)).length).toBe(2);
    expect((await q(`path=${encodeURIComponent(callsPath(b.sid))}`)).length).toBe(1);
    expect((await q('status=400')).map((e) => e.account)).toEqual([b.sid]);
    expect((await q('limit=1')).length).toBe(1);
    // A limit past the journal's size asks for all it holds.
    const all = await request(app).get('/__admin/requests?limit=999999');
    expect([all.status, all.body.requests.length]).toEqual([200, all.body.held]);
    expect((await q('since=2999-01-01T00:00:00Z')).length).toBe(0);
    expect((await q('since=2000-01-01T00:00:00Z')).length).toBe(3);
    for (const bad of ['status=abc', 'limit=-1', 'since=soon', 'colour=red']) {
      expect((await request(app).get(`/__admin/requests?${bad}`)).status).toBe(400);
    }
    // matched: how many held entries pass, whatever the limit; limit=0 asks for the count alone.
    const counted = await request(app).get(`/__admin/requests?account=${b.sid}&method=get&limit=0`);
    expect([counted.body.requests, counted.body.matched]).toEqual([[], 2]);
    // One account's part of the journal is cleared, the rest stays; a misspelt scope clears nothing.
    for (const bad of ['acount=x', 'account=']) {
      expect((await request(app).delete(`/__admin/requests?${bad}`)).status).toBe(400);
      expect((await request(app).delete(`/__admin/faults?${bad}`)).status).toBe(400);
    }
    expect((await request(app).delete(`/__admin/requests?account=${b.sid}`)).body).toEqual({
      status: 'cleared',
      account: b.sid,
    });
    expect((await q('')).map((e) => e.account)).toEqual([a.sid]);
    await request(app).delete('/__admin/requests').expect(200);
    expect(await q('')).toEqual([]);
  });

  test('stays at its bound after 100,000 requests, memory flat', async () => {
    const { app, world } = makeEmulator({ journalSize: 50 });
    const a = byCalls(world, 1);
    const path = callsPath(a.sid);
    const req = {
      url: path,
      method: 'GET',
      headers: { authorization: `Basic ${Buffer.from(`${a.token}:`).toString('base64')}` },
    };
    // Straight into the request listener with a minimal response: 100,000 supertest round trips would take minutes.
    const fire = () =>
      new Promise<void>((done) => {
        const listeners: Record<string, (() => void)[]> = {};
        const res = {
          statusCode: 200,
          writableFinished: false,
          on: (ev: string, fn: () => void) => {
            listeners[ev] ??= [];
            listeners[ev].push(fn);
            return res;
          },
          writeHead: () => res,
          end: () => {
            res.writableFinished = true;
            for (const fn of listeners['close'] ?? []) fn();
            done();
          },
        };
        app(req as never, res as never);
      });
    // Twice: an answer is kept on its second request.
    for (let i = 0; i < 2; i++) await request(app).get(path).auth(a.token, '');
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100_000; i++) await fire();
    global.gc?.();
    const after = process.memoryUsage().heapUsed;
    const journal = (await request(app).get('/__admin/requests')).body;
    expect(journal.held).toBe(50);
    expect(journal.requests).toHaveLength(50);
    expect(journal.seen).toBe(100_002);
    expect(after - before).toBeLessThan(30 * 1024 * 1024);
  });
});

describe("the journal's detail keeps the head of each answer's body", () => {
  test('an error whole, a page cut at BODY_BYTES (from the response cache too), a fault’s body; none for HEAD or audio', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app).get(callsPath(a.sid));
    await authGet(app, `${callsPath(a.sid)}?PageSize=20`, a.token);
    await authGet(app, `${callsPath(a.sid)}?PageSize=20`, a.token); // from the response cache
    await request(app).head(callsPath(a.sid)).auth(a.token, '');
    await request(app).post('/__admin/faults').type('json').send({ path: '/call/', status: 429, times: 1 });
    const limited = await authGet(app, recordingsPath(a.sid), a.token);
    const rec = world.account(a.sid)!.recordings;
    const wav = `${recordingsPath(a.sid).replace('.json', '')}/${rec.get(rec.order(null).at(0)).sid}.wav`;
    expect((await request(app).get(wav)).status).toBe(200);
    const entries = (await request(app).get('/__admin/requests')).body.requests as Item[];
    const detail = async (k: number) => (await request(app).get(`/__admin/requests/${entries[k]!.id}`)).body;
    const [audio, fault, head, cached, page, unauthorized] = await Promise.all([0, 1, 2, 3, 4, 5].map(detail));
    expect([audio.response_body, audio.response_body_truncated]).toEqual([null, false]);
    expect([fault.status, fault.response_body]).toEqual([429, limited.text]);
    expect(head.response_body).toBeNull();
    expect(JSON.parse(unauthorized.response_body)).toEqual({ message: expect.any(String) });
    expect(unauthorized.response_body_truncated).toBe(false);
    for (const p of [page, cached]) {
      expect(Buffer.byteLength(p.response_body)).toBe(BODY_BYTES);
      expect(p.response_body_truncated).toBe(true);
      expect(p.response_body.startsWith('{"page":0')).toBe(true);
    }
  });

  test(`a successful answer's body is kept among the newest ${RECENT_BODIES} only; an error's for as long as its entry`, async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app).get(callsPath(a.sid));
    for (let k = 0; k < RECENT_BODIES + 4; k++) await authGet(app, `${callsPath(a.sid)}?PageSize=1&Page=${k}`, a.token);
    const entries = (await request(app).get('/__admin/requests?limit=100')).body.requests as Item[];
    const bodyOf = async (e: Item) => (await request(app).get(`/__admin/requests/${e.id}`)).body.response_body;
    const pages = entries.filter((e) => e.status === 200);
    const kept = await Promise.all(pages.map(bodyOf));
    expect(kept.filter((b) => b !== null)).toHaveLength(RECENT_BODIES);
    expect(kept.slice(0, RECENT_BODIES).every((b) => b !== null)).toBe(true);
    const unauthorized = entries.find((e) => e.status === 401)!;
    expect(JSON.parse(await bodyOf(unauthorized))).toHaveProperty('message');
  });
});

describe("the inspector's own requests: a person looking, not the client under test", () => {
  const INSPECTOR = { 'X-Emulator-Inspector': '1' };

  test('left out of the journal unless asked for; in their own lane, so they never evict a client’s entries', async () => {
    const { app, world } = makeEmulator({ journalSize: 3 });
    const a = byCalls(world, 448);
    for (const page of [0, 1, 2]) await authGet(app, `${callsPath(a.sid)}?Page=${page}`, a.token);
    for (let k = 0; k < 10; k++)
      await request(app)
        .get(`${callsPath(a.sid)}?Page=${k}`)
        .auth(a.token, '')
        .set(INSPECTOR);
    const clients = (await request(app).get('/__admin/requests')).body;
    expect(clients.requests.map((e: Item) => e.query)).toEqual(['Page=2', 'Page=1', 'Page=0']);
    expect(clients.requests.every((e: Item) => e.inspector === false)).toBe(true);
    const all = (await request(app).get(`/__admin/requests?inspector=true&account=${a.sid}&limit=100`)).body;
    expect(all.requests.filter((e: Item) => e.inspector).map((e: Item) => e.query)).toEqual([
      'Page=9',
      'Page=8',
      'Page=7',
    ]);
    expect(all.matched).toBe(6);
    const bad = await request(app).get('/__admin/requests?inspector=yes');
    expect([bad.status, bad.body.message]).toEqual([400, `query.inspector: ${problems.flag('yes')}`]);
  });

  test('an inspector page as the referrer marks a request too (an <audio> sends no header of ours); another page does not', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app)
      .get(callsPath(a.sid))
      .auth(a.token, '')
      .set('Referer', 'http://127.0.0.1:8080/__admin/ui#/calls');
    await request(app).get(callsPath(a.sid)).auth(a.token, '').set('Referer', 'http://app.test/shop/__admin/ui');
    const all = (await request(app).get('/__admin/requests?inspector=true')).body.requests as Item[];
    expect(all.map((e) => e.inspector)).toEqual([false, true]);
  });

  test('never a walk, and never spends a fault meant for the client', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app).post('/__admin/faults').type('json').send({ path: '/call/', status: 503, times: 1 });
    const looked = await request(app).get(callsPath(a.sid)).auth(a.token, '').set(INSPECTOR);
    expect(looked.status).toBe(200);
    const client = await authGet(app, callsPath(a.sid), a.token);
    expect(client.status).toBe(503);
    const walks = (await request(app).get('/__admin/walks')).body.walks as Item[];
    expect(walks).toEqual([]);
    // The client's pages, with the inspector's between them, are one walk.
    for (const page of [0, 1]) {
      await authGet(app, `${callsPath(a.sid)}?Page=${page}&PageSize=224`, a.token);
      await request(app)
        .get(`${callsPath(a.sid)}?PageSize=10`)
        .auth(a.token, '')
        .set(INSPECTOR);
    }
    await authGet(app, `${callsPath(a.sid)}?Page=2&PageSize=224`, a.token);
    const after = (await request(app).get('/__admin/walks')).body.walks as Item[];
    expect(after.map((w) => [w.pages, w.complete])).toEqual([[3, true]]);
  });
});

describe('faults', () => {
  test('create, list, get, delete; bad faults are 400', async () => {
    const { app } = makeEmulator();
    const created = await request(app).post('/__admin/faults').type('json').send({ path: '/call/', status: 503 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'fault-1', path: '/call/', status: 503, matched: 0, applied: 0 });
    expect((await request(app).get('/__admin/faults')).body.faults).toHaveLength(1);
    expect((await request(app).get('/__admin/faults/fault-1')).body.id).toBe('fault-1');
    expect((await request(app).delete('/__admin/faults/fault-1')).body).toEqual({ deleted: 'fault-1' });
    expect((await request(app).get('/__admin/faults/fault-1')).status).toBe(404);
    for (const bad of [
      {},
      { status: 99 },
      { fault: 'explode' },
      { delay: { distribution: 'pareto' } },
      { status: 500, fault: 'empty_response' },
      { probability: 2, status: 500 },
      { body: 'x' },
      { colour: 1, status: 500 },
    ]) {
      const res = await request(app).post('/__admin/faults').type('json').send(bad);
      expect(res.status).toBe(400);
      expect(typeof res.body.message).toBe('string');
    }
  });

  test('status with a body, limited to the first `times` matches; the journal marks it', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app)
      .post('/__admin/faults')
      .type('json')
      .send({ account: a.sid, status: 503, body: { message: 'down' }, times: 2 });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await authGet(app, callsPath(a.sid), a.token)).status);
    expect(statuses).toEqual([503, 503, 200, 200]);
    const other = byCalls(world, 50);
    expect((await authGet(app, callsPath(other.sid), other.token)).status).toBe(200);
    const entries = (await request(app).get('/__admin/requests')).body.requests as Item[];
    expect(entries.filter((e) => e.fault !== null).map((e) => e.fault)).toEqual([
      { id: 'fault-1', effect: 'status' },
      { id: 'fault-1', effect: 'status' },
    ]);
  });

  test('a status fault sets headers of its own: a 429 with its Retry-After; framing headers are refused', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const made = await request(app)
      .post('/__admin/faults')
      .type('json')
      .send({ account: a.sid, status: 429, headers: { 'Retry-After': '7', 'X-RateLimit-Remaining': '0' } });
    expect(made.status).toBe(201);
    const res = await authGet(app, callsPath(a.sid), a.token);
    expect([res.status, res.headers['retry-after'], res.headers['x-ratelimit-remaining']]).toEqual([429, '7', '0']);
    for (const [headers, field] of [
      [{ 'Content-Length': '1' }, 'body.headers.Content-Length'],
      [{ 'X-A': 'line\r\nbreak' }, 'body.headers.X-A'],
      [{ 'X-A': 3 }, 'body.headers.X-A'],
      ['Retry-After: 7', 'body.headers'],
    ] as const) {
      const bad = await request(app).post('/__admin/faults').type('json').send({ status: 429, headers });
      expect([bad.status, bad.body.message.startsWith(`${field}:`)]).toEqual([400, true]);
    }
    const alone = await request(app)
      .post('/__admin/faults')
      .type('json')
      .send({ delay_ms: 5, headers: { 'X-A': 'b' } });
    expect(alone.body.message).toBe(`body.headers: ${problems.goesWith('status or rate_limit')}`);
  });

  test('a rate limit answers 429 with Retry-After past its limit', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app)
      .post('/__admin/faults')
      .type('json')
      .send({ path: '/call/*/Calls.json', rate_limit: { limit: 3, window_s: 60 } });
    const res = [];
    for (let i = 0; i < 5; i++) res.push(await authGet(app, callsPath(a.sid), a.token));
    expect(res.map((r) => r.status)).toEqual([200, 200, 200, 429, 429]);
    expect(Number(res[3]!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(res[3]!.body.message).toBe(messages.rateLimited(3, 60));
    expect((await authGet(app, recordingsPath(a.sid), a.token)).status).toBe(200);
  });

  test('connection_reset is seen by the client as a reset; empty_response as a hang-up', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const server = http.createServer(app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const get = () =>
      new Promise<string>((done) => {
        http
          .get({ port, host: '127.0.0.1', path: callsPath(a.sid), auth: `${a.token}:`, agent: false }, (res) => {
            res.resume();
            res.on('end', () => done(`status ${res.statusCode}`));
          })
          .on('error', (err: NodeJS.ErrnoException) => done(err.code ?? err.message));
      });
    try {
      await request(app).post('/__admin/faults').type('json').send({ fault: 'connection_reset', times: 1 });
      expect(await get()).toBe('ECONNRESET');
      await request(app).post('/__admin/faults').type('json').send({ fault: 'empty_response', times: 1 });
      expect(await get()).toBe('ECONNRESET');
      expect(await get()).toBe('status 200');
      const entries = (await request(app).get('/__admin/requests')).body.requests as Item[];
      expect(entries.map((e) => e.status)).toEqual([200, 0, 0]);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  test('delays: fixed and drawn; a seeded probability repeats from run to run', async () => {
    const outcomes = async () => {
      const { app, world } = makeEmulator();
      const a = byCalls(world, 448);
      await request(app).post('/__admin/faults').type('json').send({ probability: 0.5, status: 500 });
      const seen: number[] = [];
      for (let i = 0; i < 40; i++) seen.push((await authGet(app, `${callsPath(a.sid)}?Page=${i % 8}`, a.token)).status);
      return seen;
    };
    const first = await outcomes();
    expect(await outcomes()).toEqual(first);
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(8);
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(8);

    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app).post('/__admin/faults').type('json').send({ delay_ms: 120, times: 1 });
    const t0 = Date.now();
    expect((await authGet(app, callsPath(a.sid), a.token)).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(110);
    await request(app)
      .post('/__admin/faults')
      .type('json')
      .send({ delay: { distribution: 'uniform', min_ms: 1, max_ms: 5 } });
    expect((await authGet(app, callsPath(a.sid), a.token)).status).toBe(200);
  });

  test('DELETE /__admin/faults?account= deletes the faults scoped to that account only', async () => {
    const { app, world } = makeEmulator();
    const [a, b] = [byCalls(world, 448), byCalls(world, 50)];
    const add = (body: unknown) => request(app).post('/__admin/faults').type('json').send(JSON.stringify(body));
    await add({ account: a.sid, status: 500 });
    await add({ account: b.sid, status: 502 });
    await add({ status: 503, path: '/nowhere' });
    expect((await request(app).delete(`/__admin/faults?account=${a.sid}`)).body).toEqual({
      status: 'cleared',
      account: a.sid,
      deleted: 1,
    });
    const left = (await request(app).get('/__admin/faults')).body.faults as Item[];
    expect(left.map((f) => f['status'])).toEqual([502, 503]);
  });

  test('a reset clears faults and the journal', async () => {
    const { app } = makeEmulator();
    await request(app).post('/__admin/faults').type('json').send({ status: 500 });
    await request(app).get('/nowhere');
    await request(app).post('/__admin/reset').type('json');
    expect((await request(app).get('/__admin/faults')).body.faults).toEqual([]);
    expect((await request(app).get('/__admin/requests')).body.requests).toEqual([]);
  });
});

describe('--strict and clients that follow links', () => {
  test.each(['production', 'documented'] as const)(
    'every page of both lists, walked by next_page_uri, answers 200 with no warning (%s paging)',
    async (paging) => {
      const { app, world } = makeEmulator({ strict: true, paging });
      const a = byCalls(world, 448);
      for (const [list, key, total] of [
        ['Calls', 'calls', a.store.calls.count],
        ['Recordings', 'recordings', a.store.recordings.count],
      ] as const) {
        let path = `/call/2012-04-24/Accounts/${a.sid}/${list}.json?PageSize=37`;
        const seen: string[] = [];
        for (;;) {
          const res = await authGet(app, path, a.token);
          expect([res.status, res.headers['x-emulator-warning']]).toEqual([200, undefined]);
          seen.push(...(res.body[key] as { sid: string }[]).map((r) => r.sid));
          if (res.body.next_page_uri === 'null') break;
          // The calls list prints its links without /call and .json (production's quirk).
          const next = res.body.next_page_uri as string;
          path = next.startsWith('/call/') ? next : `/call${next.replace('/Calls?', '/Calls.json?')}`;
        }
        expect(new Set(seen).size).toBe(total);
      }
    },
  );
});

describe('--strict', () => {
  test.each([
    ['pagesize=5', 'did you mean PageSize?'],
    ['SortBy=date_created', 'SortBy attribute'],
    ['SortBy=', 'Empty SortBy'],
    [
      'AfterSid=CA1',
      'is ignored, as in production: only Page and PageSize select the page, and this page is the first',
    ],
    ['page_size=5', 'Parameter "page_size" is ignored: this list reads Page, PageSize'],
    ['Page=1&Page=2', 'given more than once'],
  ])('%s → 400 with the warning text', async (query, text) => {
    const { app, world } = makeEmulator({ strict: true });
    const a = byCalls(world, 448);
    const res = await authGet(app, `${callsPath(a.sid)}?${query}`, a.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(text);
    expect((await authGet(app, `${callsPath(a.sid)}?Page=1`, a.token)).status).toBe(200);
  });
});

describe('--admin-token', () => {
  test('admin calls need the bearer token, except GET health', async () => {
    const { app } = makeEmulator({ adminToken: 's3cret' });
    expect((await request(app).get('/__admin/health')).status).toBe(200);
    const denied = await request(app).get('/__admin/accounts');
    expect(denied.status).toBe(401);
    expect(denied.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(denied.body).toEqual({ message: messages.adminUnauthorized });
    expect((await request(app).post('/__admin/reset').type('json').set('Authorization', 'Bearer wrong')).status).toBe(
      401,
    );
    expect((await request(app).get('/__admin/accounts').set('Authorization', 'Bearer s3cret')).status).toBe(200);
  });
});

describe('health', () => {
  test('status, version, seed, clock, uptime and counts', async () => {
    const { app } = makeEmulator();
    const res = await request(app).get('/__admin/health');
    expect(Object.keys(res.body)).toEqual([
      'status',
      'version',
      'seed',
      'clock',
      'clock_start',
      'clock_rate',
      'uptime_s',
      'accounts',
      'calls',
      'recordings',
      'journal',
      'faults',
      'strict',
      'replica',
      'log',
      'hazards',
    ]);
    expect(res.body).toMatchObject({
      // One process: its write log is its own, nothing written yet.
      replica: 'local',
      log: { version: 0, where: 'this process', up: true },
      hazards: [],
      calls: 499,
      recordings: 195,
      faults: 0,
      strict: false,
      clock: '2025-06-01T12:00:00.000Z',
    });
    const seeded = await request(app).post('/__admin/seed').send({ seed: 'other', clock: '2024-01-02T03:04:05Z' });
    expect(seeded.headers['x-callrec-version']).toBe('1');
    const after = await request(app).get('/__admin/health');
    expect(after.headers['x-callrec-version']).toBe('1');
    expect(after.body).toMatchObject({ seed: 'other', clock: '2024-01-02T03:04:05.000Z', log: { version: 1 } });
    const reset = await request(app).post('/__admin/reset').type('json');
    expect(reset.body.seed).toBe('other');
  });

  test('GET / is a small JSON index: the API, the admin API, its document', async () => {
    const { app } = makeEmulator();
    const res = await request(app).get('/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      name: 'callrec-emulator',
      version: expect.any(String),
      api: '/call/2012-04-24/Accounts/{AccountSid}/Calls.json',
      admin: '/__admin',
      health: '/__admin/health',
      openapi: '/__admin/openapi.json',
    });
    expect((await request(app).get(res.body.openapi)).status).toBe(200);
  });
});
