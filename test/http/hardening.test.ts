import request from 'supertest';
import { ADMIN_BODY_BYTES } from '../../src/admin/body-limits';
import { messages, problems, ValidationError } from '../../src/errors';
import { MAX_JSON_DEPTH } from '../../src/input/fields';
import { authGet, byCalls, callsPath, makeEmulator } from '../support/app';

const nested = (depth: number, leaf: unknown = 1): string =>
  '['.repeat(depth) + JSON.stringify(leaf) + ']'.repeat(depth);
const tooDeep = (at: string) => new ValidationError(at, problems.tooDeep(MAX_JSON_DEPTH)).message;

describe('the admin API belongs to the test, not to a web page', () => {
  test("a body that is not JSON is a 415, and nothing changes; a bodyless POST is a script's: curl -X POST …/reset works", async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    await request(app).post(`/__admin/accounts/${a.sid}/calls`).send({ from: 'x' }).expect(201);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const res = await request(app).post('/__admin/reset').set('Content-Type', type).send('x');
      expect(res.status).toBe(415);
      expect(res.body.message).toBe(messages.adminJsonOnly('POST'));
    }
    expect(a.store.calls.count).toBe(51);
    // What curl -X POST sends: no type, no body.
    const bare = await request(app).post('/__admin/reset');
    expect(bare.status).toBe(200);
    expect(a.store.calls.count).toBe(50);
  });

  test.each([
    ['a form post', { Origin: 'http://page.test', 'Content-Type': 'application/x-www-form-urlencoded' }, 'x=1'],
    ['fetch no-cors, no body', { Origin: 'http://localhost:3000' }, undefined],
    [
      'fetch with JSON (its preflight is never granted)',
      { Origin: 'http://page.test', 'Content-Type': 'application/json' },
      '{}',
    ],
    ['a page of a file or sandboxed frame', { Origin: 'null' }, undefined],
    ['a cross-site request without Origin', { 'Sec-Fetch-Site': 'cross-site' }, undefined],
  ] as [string, Record<string, string>, string | undefined][])(
    'a web page on another origin cannot write (%s): 403, and nothing changes',
    async (_what, headers, body) => {
      const { app, world } = makeEmulator();
      const a = byCalls(world, 50);
      await request(app).post(`/__admin/accounts/${a.sid}/calls`).send({ from: 'x' }).expect(201);
      let req = request(app).post('/__admin/reset');
      for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
      const res = await (body === undefined ? req : req.send(body));
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(messages.adminCrossOrigin(headers['Origin'] ?? 'another site'));
      expect((await request(app).delete(`/__admin/accounts/${a.sid}`).set(headers)).status).toBe(403);
      expect(a.store.calls.count).toBe(51);
    },
  );

  test('a cross-site GET (an <img> of another page) cannot make the server build a report; a link to the inspector opens it', async () => {
    const { app } = makeEmulator();
    for (const path of ['/__admin/walks', '/__admin/state', '/__admin/requests']) {
      const res = await request(app).get(path).set('Sec-Fetch-Site', 'cross-site').set('Sec-Fetch-Mode', 'no-cors');
      expect(res.status).toBe(403);
    }
    const page = await request(app)
      .get('/__admin/ui')
      .set('Sec-Fetch-Site', 'cross-site')
      .set('Sec-Fetch-Mode', 'navigate');
    expect(page.status).toBe(200);
    expect((await request(app).get('/__admin/health').set('Sec-Fetch-Site', 'cross-site')).status).toBe(200);
  });

  test('the inspector (its own origin, same-origin fetch) writes as before', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const res = await request(app)
      .post(`/__admin/accounts/${a.sid}/calls`)
      .set('Host', '127.0.0.1:8080')
      .set('Origin', 'http://127.0.0.1:8080')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('json')
      .send('[{}]');
    expect(res.status).toBe(201);
  });

  test.each([
    ['localhost:8080', 200],
    ['127.0.0.1:8080', 200],
    ['127.8.9.10', 200],
    ['[::1]:8080', 200],
    ['LOCALHOST', 200],
    ['evil.test:8080', 403],
    ['localhost.evil.test', 403],
    ['emulator:8080', 403],
  ])('Host %s → %i on /__admin/accounts (DNS rebinding)', async (host, status) => {
    const { app } = makeEmulator();
    const res = await request(app).get('/__admin/accounts').set('Host', host);
    expect(res.status).toBe(status);
    if (status === 403) expect(res.body.message).toBe(messages.adminHost(host));
  });

  test('--admin-hosts adds names; the health check answers any host, with any query', async () => {
    const { app } = makeEmulator({ adminHosts: ['emulator'] });
    expect((await request(app).get('/__admin/accounts').set('Host', 'emulator:8080')).status).toBe(200);
    expect((await request(app).get('/__admin/health?probe=1').set('Host', 'evil.test')).status).toBe(200);
    const guarded = makeEmulator({ adminToken: 'secret' });
    expect((await request(guarded.app).get('/__admin/health?x=1')).status).toBe(200);
    expect((await request(guarded.app).get('/__admin/accounts')).status).toBe(401);
    expect((await request(guarded.app).get('/__admin/accounts').set('Authorization', 'Bearer secre')).status).toBe(401);
    expect((await request(guarded.app).get('/__admin/accounts').set('Authorization', 'Bearer secret')).status).toBe(
      200,
    );
  });

  test('--cors opens the API paths to any origin, never /__admin unless a token guards it', async () => {
    const { app, world } = makeEmulator({ cors: true });
    const a = byCalls(world, 50);
    const api = await authGet(app, callsPath(a.sid), a.token).set('Origin', 'http://page.test');
    expect(api.headers['access-control-allow-origin']).toBe('*');
    const pre = await request(app)
      .options('/__admin/accounts')
      .set('Origin', 'http://page.test')
      .set('Access-Control-Request-Method', 'DELETE');
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const read = await request(app).get('/__admin/accounts').set('Origin', 'http://page.test');
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const tokened = makeEmulator({ cors: true, adminToken: 't' });
    const open = await request(tokened.app).get('/__admin/health').set('Origin', 'http://page.test');
    expect(open.headers['access-control-allow-origin']).toBe('*');
    // A page of another origin writes only with the token as a Bearer header, never with what a
    // browser sends on its own (Basic credentials it was once asked for).
    const write = (authorization: string) =>
      request(tokened.app).post('/__admin/reset').set('Origin', 'http://page.test').set('Authorization', authorization);
    expect((await write('Bearer t')).status).toBe(200);
    expect((await write(`Basic ${Buffer.from('x:t').toString('base64')}`)).status).toBe(403);
  });
});

describe('admin bodies are bounded', () => {
  test('a fault body nested 5,000 deep is a 400 naming the limit; no fault is kept, the API still answers', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const res = await request(app)
      .post('/__admin/faults')
      .set('Content-Type', 'application/json')
      .send(`{"status":500,"body":${nested(5000)}}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(tooDeep('body'));
    expect(app.faults.size).toBe(0);
    expect((await authGet(app, callsPath(a.sid), a.token)).status).toBe(200);
  });

  test.each(['calls', 'duration', 'status', 'delay_ms'])('depth 5,000 in %s is a 400, not a 500', async (field) => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const body = `{"${field}":${nested(5000)}}`;
    for (const path of ['/__admin/accounts', `/__admin/accounts/${a.sid}/calls`, '/__admin/faults']) {
      const res = await request(app).post(path).set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(400);
    }
  });

  test('nesting up to the limit is fine: a fault body 60 deep is kept and sent', async () => {
    const { app } = makeEmulator();
    const res = await request(app)
      .post('/__admin/faults')
      .send(JSON.parse(`{"status":500,"body":${nested(60)}}`));
    expect(res.status).toBe(201);
  });

  test('a body over 1 MB is a 413; a state import may be larger', async () => {
    const { app } = makeEmulator();
    const big = JSON.stringify({ friendly_name: 'x'.repeat(ADMIN_BODY_BYTES) });
    const res = await request(app).post('/__admin/accounts').set('Content-Type', 'application/json').send(big);
    expect(res.status).toBe(413);
    expect(res.body.message).toBe(messages.bodyTooLarge(ADMIN_BODY_BYTES));
    const state = (await request(app).get('/__admin/state')).body as Record<string, unknown>;
    const padded = `${JSON.stringify(state).slice(0, -1)}${' '.repeat(2 * ADMIN_BODY_BYTES)}}`;
    const put = await request(app).put('/__admin/state').set('Content-Type', 'application/json').send(padded);
    expect(put.status).toBe(200);
  });

  test('provider-state params named like Object members are refused', async () => {
    const { app } = makeEmulator();
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const res = await request(app)
        .post('/__admin/provider-states')
        .set('Content-Type', 'application/json')
        .send(`{"state":"an empty account","params":{"${name}":"x"}}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(new RegExp(`^body\\.params\\.${name}: is not a parameter of state`));
    }
  });
});

describe('decoded once, at the front door', () => {
  test('a percent-encoded account sid meets its account-scoped faults and the journal filter', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const encoded = callsPath(a.sid).replace(`/${a.sid}/`, `/%41%43${a.sid.slice(2)}/`);
    expect((await authGet(app, encoded, a.token)).status).toBe(200);
    await request(app).post('/__admin/faults').send({ account: a.sid, status: 503, times: 1 }).expect(201);
    expect((await authGet(app, encoded, a.token)).status).toBe(503);
    const journal = await request(app).get(`/__admin/requests?account=${a.sid}`);
    expect(journal.body.requests).toHaveLength(2);
    expect(journal.body.requests[0]).toMatchObject({ status: 503, account: a.sid });
  });
});

describe('LIKE filters do not backtrack', () => {
  test('From= fourteen % and an x, and CallSid= the same on recordings, answer (a RegExp froze for 39 s)', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    // Fourteen wildcards then a character no From and no sid holds: every match fails, late.
    const hostile = `${'%25'.repeat(14)}%23`;
    const calls = await authGet(app, `${callsPath(a.sid)}?From=${hostile}`, a.token);
    expect([calls.status, calls.body.total]).toEqual([200, 0]);
    const recs = await authGet(app, `/call/2012-04-24/Accounts/${a.sid}/Recordings.json?CallSid=${hostile}`, a.token);
    expect([recs.status, recs.body.total]).toEqual([200, 0]);
  });
});
