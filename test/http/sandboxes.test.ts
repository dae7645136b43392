import request from 'supertest';
import { messages, problems } from '../../src/errors';
import { byCalls, makeEmulator } from '../support/app';

type Item = Record<string, any>;

function setup() {
  const em = makeEmulator();
  const parent = byCalls(em.world, 448);
  const fork = async (body: unknown) =>
    request(em.app).post('/__admin/sandboxes').type('json').send(JSON.stringify(body));
  const list = async (sid: string, token: string, query = 'PageSize=448') =>
    (await request(em.app).get(`/call/2012-04-24/Accounts/${sid}/Calls.json?${query}`).auth(token, '')).body as Item;
  const insert = (sid: string, body: unknown) =>
    request(em.app).post(`/__admin/accounts/${sid}/calls`).type('json').send(JSON.stringify(body));
  return { ...em, parent, fork, list, insert };
}

const withoutAccount = (calls: Item[]) =>
  calls.map(({ account_sid: _a, uri: _u, subresource_uris: _s, ...rest }) => rest);

describe('sandboxes: copy-on-write forks of an account', () => {
  test("a fork has the parent's records under its own sid and token", async () => {
    const { app, parent, fork, list } = setup();
    const res = await fork({ from: parent.sid, name: 'worker 1' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ friendly_name: 'worker 1', calls: 448, recordings: 160, from: parent.sid });
    expect(res.body.sid).not.toBe(parent.sid);
    const mine = await list(res.body.sid, res.body.token);
    const theirs = await list(parent.sid, parent.token);
    expect(withoutAccount(mine.calls)).toEqual(withoutAccount(theirs.calls));
    expect(mine.calls[0].account_sid).toBe(res.body.sid);
    // Its token opens its own account only.
    expect(
      (await request(app).get(`/call/2012-04-24/Accounts/${parent.sid}/Calls.json`).auth(res.body.token, '')).status,
    ).toBe(403);
  });

  test('writes on either side never show on the other; the fork starts with the writes made before it', async () => {
    const { parent, fork, list, insert } = setup();
    await insert(parent.sid, [{ from: '+15550000001' }]);
    const sb = (await fork({ from: parent.sid })).body;
    expect((await list(sb.sid, sb.token, 'From=5550000001')).total).toBe(1);
    await insert(sb.sid, [{ from: '+15550000002' }]);
    await insert(parent.sid, [{ from: '+15550000003' }]);
    expect((await list(sb.sid, sb.token, 'From=5550000002')).total).toBe(1);
    expect((await list(parent.sid, parent.token, 'From=5550000002')).total).toBe(0);
    expect((await list(sb.sid, sb.token, 'From=5550000003')).total).toBe(0);
    expect((await list(parent.sid, parent.token)).total).toBe(450);
    expect((await list(sb.sid, sb.token)).total).toBe(450);
  });

  test('sorted orders built by one serve the other (the seeded records are shared, not copied)', async () => {
    const { world, parent, fork, list } = setup();
    const sorted = await list(parent.sid, parent.token, 'SortBy=From:asc&PageSize=20');
    const sb = (await fork({ from: parent.sid })).body;
    const mine = await list(sb.sid, sb.token, 'SortBy=From:asc&PageSize=20');
    expect(withoutAccount(mine.calls)).toEqual(withoutAccount(sorted.calls));
    const [a, b] = [world.account(parent.sid)!, world.account(sb.sid)!] as any[];
    expect(b.calls.seededOrders).toBe(a.calls.seededOrders);
  });

  test('a global reset is refused while sandboxes live, naming them, unless forced; DELETE ends one', async () => {
    const { app, parent, fork } = setup();
    const one = (await fork({ from: parent.sid })).body;
    const two = (await fork({ from: parent.sid })).body;
    const refused = await request(app).post('/__admin/reset').type('json');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      message: messages.endsSandboxes('A reset', [one.sid, two.sid], 'POST /__admin/reset'),
    });
    expect((await request(app).delete(`/__admin/sandboxes/${one.sid}`)).body).toEqual({
      status: 'deleted',
      sid: one.sid,
    });
    expect((await request(app).get('/__admin/sandboxes')).body.sandboxes.map((s: Item) => s.sid)).toEqual([two.sid]);
    expect((await request(app).post('/__admin/reset?force=true').type('json')).status).toBe(200);
    expect((await request(app).get('/__admin/sandboxes')).body.sandboxes).toEqual([]);
    expect((await request(app).delete(`/__admin/sandboxes/${two.sid}`)).status).toBe(404);
  });

  // Every global write that would end sandboxes other workers use is a 409 unless forced, as reset is.
  test.each([
    ['a new seed', 'post', '/__admin/seed', 'A new seed', 'POST /__admin/seed'],
    ['a state import', 'put', '/__admin/state', 'A state import', 'PUT /__admin/state'],
  ] as const)(
    '%s is refused while sandboxes live, naming them, and changes nothing; forced, it ends them',
    async (_what, method, path, what, retry) => {
      const { app, parent, fork, list } = setup();
      // The state as it was before the fork: importing it leaves no sandbox.
      const body = method === 'post' ? '{"seed":"other"}' : (await request(app).get('/__admin/state')).text;
      const sb = (await fork({ from: parent.sid })).body;
      const refused = await request(app)[method](path).type('json').send(body);
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({ message: messages.endsSandboxes(what, [sb.sid], retry) });
      expect((await list(sb.sid, sb.token)).total).toBe(448);
      expect((await request(app).get('/__admin/health')).body.seed).toBe('callrec');
      expect((await request(app)[method](`${path}?force=true`).type('json').send(body)).status).toBe(200);
      expect((await request(app).get('/__admin/sandboxes')).body.sandboxes).toEqual([]);
    },
  );

  test('the same steps give the same sandboxes (sid, token), after a reset too', async () => {
    const a = setup();
    const b = setup();
    const x = (await a.fork({ from: a.parent.sid })).body;
    const y = (await b.fork({ from: b.parent.sid })).body;
    expect([x.sid, x.token]).toEqual([y.sid, y.token]);
    await request(a.app).post('/__admin/reset?force=true').type('json');
    expect((await a.fork({ from: a.parent.sid })).body.sid).toBe(x.sid);
  });

  test('a state export holds a sandbox as an account that draws from its parent; an import gives the same lists', async () => {
    const { app, parent, fork, insert, list } = setup();
    const sb = (await fork({ from: parent.sid })).body;
    await insert(sb.sid, [{ from: '+15550000009' }]);
    const state = (await request(app).get('/__admin/state')).text;
    expect(JSON.parse(state).accounts.find((a: Item) => a['sid'] === sb.sid).data_of).toBe(parent.sid);
    const other = setup();
    expect((await request(other.app).put('/__admin/state').type('json').send(state)).status).toBe(200);
    expect(JSON.stringify(await other.list(sb.sid, sb.token))).toBe(JSON.stringify(await list(sb.sid, sb.token)));
  });

  test('a sandbox has a clock of its own: moving it moves no other, and inserts arrive at it', async () => {
    const { app, parent, fork, insert, list } = setup();
    const sb = (await fork({ from: parent.sid })).body;
    const moved = await request(app).post(`/__admin/sandboxes/${sb.sid}/clock`).type('json').send('{"advance":"PT1H"}');
    expect(moved.body).toMatchObject({ now: '2025-06-01T13:00:00.000Z', advanced_ms: 3_600_000 });
    expect((await request(app).get('/__admin/clock')).body.now).toBe('2025-06-01T12:00:00.000Z');
    const [mine] = (await insert(sb.sid, [{}])).body as Item[];
    const [theirs] = (await insert(parent.sid, [{}])).body as Item[];
    // With no dates, each ended at its own account's clock.
    expect([mine!['date_updated'], theirs!['date_updated']]).toEqual([
      'Sun, 1 Jun 2025 13:00:00 +0000',
      'Sun, 1 Jun 2025 12:00:00 +0000',
    ]);
    const back = await request(app)
      .post(`/__admin/sandboxes/${sb.sid}/clock`)
      .type('json')
      .send('{"to":"2025-06-01T12:30:00Z"}');
    expect(back.status).toBe(400);
    expect((await list(sb.sid, sb.token, 'PageSize=1')).calls[0].date_updated).toBe('Sun, 1 Jun 2025 13:00:00 +0000');
  });

  test('an account reset of a sandbox goes back to what it was forked with, its clock too', async () => {
    const { app, parent, fork, insert, list } = setup();
    await insert(parent.sid, [{ from: '+15550000011' }]);
    const sb = (await fork({ from: parent.sid })).body;
    await insert(sb.sid, [{ from: '+15550000012' }]);
    await request(app).post(`/__admin/sandboxes/${sb.sid}/clock`).type('json').send('{"advance":"PT1H"}');
    await request(app).post(`/__admin/accounts/${sb.sid}/reset`).type('json');
    expect((await list(sb.sid, sb.token, 'From=5550000011')).total).toBe(1);
    expect((await list(sb.sid, sb.token, 'From=5550000012')).total).toBe(0);
    expect((await request(app).get(`/__admin/sandboxes/${sb.sid}/clock`)).body.advanced_ms).toBe(0);
  });

  test('a sandbox with a TTL ends by itself after it', async () => {
    const { app, parent, fork } = setup();
    const sb = (await fork({ from: parent.sid, ttl_s: 1 })).body;
    expect(sb.ttl_s).toBe(1);
    expect((await request(app).get('/__admin/sandboxes')).body.sandboxes).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await request(app).get('/__admin/sandboxes')).body.sandboxes).toEqual([]);
    expect((await request(app).get(`/call/2012-04-24/Accounts/${sb.sid}/Calls.json`).auth(sb.token, '')).status).toBe(
      401,
    );
  });

  test('a reset cancels the TTL it orphans: the sandbox that gets the same sid afterwards lives on', async () => {
    const { app, parent, fork } = setup();
    const old = (await fork({ from: parent.sid, ttl_s: 1 })).body;
    await request(app).post('/__admin/reset?force=true');
    const again = (await fork({ from: parent.sid })).body;
    expect(again.sid).toBe(old.sid);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await request(app).get('/__admin/sandboxes')).body.sandboxes.map((x: Item) => x['sid'])).toEqual([
      again.sid,
    ]);
  });

  test('default names of forks of forks stay short, and the export of 30 generations imports back', async () => {
    const { app, parent, fork } = setup();
    let from = parent.sid;
    let last: Item = {};
    for (let g = 0; g < 30; g++) {
      last = (await fork({ from })).body;
      from = last['sid'];
    }
    expect(last['friendly_name']).toBe('Acme Support Line (sandbox 30)');
    const state = (await request(app).get('/__admin/state')).text;
    expect((await request(app).put('/__admin/state?force=true').type('json').send(state)).status).toBe(200);
    // A long parent name is cut so that the suffix fits the 200 characters a name may have.
    const long = (await fork({ from: parent.sid, name: 'x'.repeat(200) })).body;
    const child = (await fork({ from: long.sid })).body;
    expect(child.friendly_name).toHaveLength(200);
    expect(child.friendly_name).toMatch(/^x+ \(sandbox 32\)$/);
  });

  test('a sandbox has a state of its own: its clock, parent and writes; the world export carries them and an import brings it back as a sandbox', async () => {
    const { app, parent, fork, insert, list } = setup();
    const sb = (await fork({ from: parent.sid })).body;
    await insert(sb.sid, [{ from: '+15550000021' }]);
    await request(app).post(`/__admin/sandboxes/${sb.sid}/clock`).type('json').send('{"advance":"PT2H"}');
    const own = (await request(app).get(`/__admin/accounts/${sb.sid}/state`)).body;
    expect(own).toMatchObject({ format: 1, seed: 'callrec', now: '2025-06-01T14:00:00.000Z' });
    expect(own.account).toMatchObject({ sid: sb.sid, sandbox_of: parent.sid, now: '2025-06-01T14:00:00.000Z' });
    expect(own.account.inserted_calls.map((c: Item) => c['from'])).toEqual(['+15550000021']);
    // The parent's own export knows nothing of it.
    expect((await request(app).get(`/__admin/accounts/${parent.sid}/state`)).body.account.inserted_calls).toEqual([]);
    const world = (await request(app).get('/__admin/state')).body;
    expect(world.now).toBeUndefined();
    expect(world.accounts.find((a: Item) => a['sid'] === sb.sid)).toEqual(own.account);

    const other = setup();
    expect((await request(other.app).put('/__admin/state').type('json').send(JSON.stringify(world))).status).toBe(200);
    expect((await request(other.app).get('/__admin/sandboxes')).body.sandboxes).toEqual([
      expect.objectContaining({ sid: sb.sid, from: parent.sid }),
    ]);
    expect((await request(other.app).get(`/__admin/sandboxes/${sb.sid}/clock`)).body.now).toBe(
      '2025-06-01T14:00:00.000Z',
    );
    expect((await request(other.app).get('/__admin/clock')).body.now).toBe('2025-06-01T12:00:00.000Z');
    expect(JSON.stringify(await other.list(sb.sid, sb.token))).toBe(JSON.stringify(await list(sb.sid, sb.token)));
    // An imported sandbox resets to what it was imported with.
    await other.insert(sb.sid, [{ from: '+15550000022' }]);
    await request(other.app).post(`/__admin/accounts/${sb.sid}/reset`).type('json');
    expect(JSON.stringify(await other.list(sb.sid, sb.token))).toBe(JSON.stringify(await list(sb.sid, sb.token)));
    // Only a sandbox has a clock of its own.
    const bad = structuredClone(world);
    bad.accounts[0].now = '2025-06-01T13:00:00.000Z';
    const refused = await request(other.app).put('/__admin/state?force=true').type('json').send(JSON.stringify(bad));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(problems.ownClockOfSandbox);
  });

  test('an account hash leaves identity out: sandboxes taken through the same steps hash alike, in any fork order', async () => {
    const { app, parent, fork, insert } = setup();
    const hash = async (sid: string) => (await request(app).get(`/__admin/accounts/${sid}/state/hash`)).body.hash;
    const worldHash = async () => (await request(app).get('/__admin/state/hash')).body.hash;
    const before = { parent: await hash(parent.sid), world: await worldHash() };
    const x = (await fork({ from: parent.sid })).body;
    const y = (await fork({ from: parent.sid, name: 'other name' })).body;
    expect(await hash(x.sid)).toBe(await hash(y.sid));
    await insert(x.sid, [{ from: '+15550000031' }]);
    expect(await hash(x.sid)).not.toBe(await hash(y.sid));
    await insert(y.sid, [{ from: '+15550000031' }]);
    expect(await hash(x.sid)).toBe(await hash(y.sid));
    await request(app).post(`/__admin/sandboxes/${y.sid}/clock`).type('json').send('{"advance":60}');
    expect(await hash(x.sid)).not.toBe(await hash(y.sid));
    expect(await hash(parent.sid)).toBe(before.parent);
    expect(await worldHash()).not.toBe(before.world);
    await request(app).post('/__admin/reset?force=true').type('json');
    expect(await worldHash()).toBe(before.world);
    expect((await request(app).get(`/__admin/accounts/AC${'0'.repeat(32)}/state/hash`)).status).toBe(404);
  });

  test('a sandbox forks from a state: one account export, here or in an emulator of another seed', async () => {
    const { app, parent, fork, insert, list } = setup();
    const sb = (await fork({ from: parent.sid })).body;
    await insert(sb.sid, [{ from: '+15550000041' }]);
    await request(app).post(`/__admin/sandboxes/${sb.sid}/clock`).type('json').send('{"advance":"PT1H"}');
    await request(app).delete(
      `/__admin/accounts/${sb.sid}/calls/${(await list(sb.sid, sb.token, 'PageSize=2')).calls[1].sid}`,
    );
    const state = (await request(app).get(`/__admin/accounts/${sb.sid}/state`)).body;
    const want = withoutAccount((await list(sb.sid, sb.token)).calls);

    const elsewhere = makeEmulator({ seed: 'another seed' });
    const made = await request(elsewhere.app)
      .post('/__admin/sandboxes')
      .type('json')
      .send(JSON.stringify({ from: state, name: 'from a state' }));
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ friendly_name: 'from a state', from: sb.sid, source: 'state' });
    const got = (
      await request(elsewhere.app)
        .get(`/call/2012-04-24/Accounts/${made.body.sid}/Calls.json?PageSize=448`)
        .auth(made.body.token, '')
    ).body;
    expect(withoutAccount(got.calls)).toEqual(want);
    expect((await request(elsewhere.app).get(`/__admin/sandboxes/${made.body.sid}/clock`)).body.now).toBe(
      '2025-06-01T13:00:00.000Z',
    );
    // Its hash is the exported sandbox's: the same records, writes and clock.
    const hashOf = async (a: typeof app, sid: string) =>
      (await request(a).get(`/__admin/accounts/${sid}/state/hash`)).body.hash;
    expect(await hashOf(elsewhere.app, made.body.sid)).toBe(await hashOf(app, sb.sid));

    // The world's export names the seed such a sandbox draws from; an import makes the same records.
    const exported = (await request(elsewhere.app).get('/__admin/state')).body;
    expect(exported.accounts.at(-1)).toMatchObject({ seed: 'callrec', sandbox_of: sb.sid });
    const third = makeEmulator({ seed: 'a third seed' });
    const imported = await request(third.app).put('/__admin/state').type('json').send(JSON.stringify(exported));
    expect(imported.status).toBe(200);
    const again = (
      await request(third.app)
        .get(`/call/2012-04-24/Accounts/${made.body.sid}/Calls.json?PageSize=448`)
        .auth(made.body.token, '')
    ).body;
    expect(again.calls).toEqual(got.calls);

    // A world's export forks when it holds one account; otherwise the message says what to send.
    const whole = (await request(app).get('/__admin/state')).body;
    const many = await fork({ from: whole });
    expect(many.status).toBe(400);
    expect(many.body.message).toContain(problems.oneAccountState(whole.accounts.length));
    const one = { ...whole, accounts: [whole.accounts.find((a: Item) => a['sid'] === parent.sid)] };
    expect((await fork({ from: one })).status).toBe(201);
    // A state written by hand: no sid or token, which are derived from its seed as for fixtures.
    const written = { format: 1, seed: 'another seed', clock: '2025-06-01T12:00:00Z' };
    const byHand = await fork({
      from: { ...written, account: { friendly_name: 'Acme Support Line', calls: 448, recordings: 160 } },
    });
    expect(byHand.status).toBe(201);
    const same = byCalls(elsewhere.world, 448);
    const ofHand = (
      await request(app)
        .get(`/call/2012-04-24/Accounts/${byHand.body.sid}/Calls.json?PageSize=448`)
        .auth(byHand.body.token, '')
    ).body;
    const ofSeed = (
      await request(elsewhere.app)
        .get(`/call/2012-04-24/Accounts/${same.sid}/Calls.json?PageSize=448`)
        .auth(same.token, '')
    ).body;
    expect(withoutAccount(ofHand.calls)).toEqual(withoutAccount(ofSeed.calls));
    const wrongFormat = await fork({ from: { ...state, format: 2 } });
    expect(wrongFormat.status).toBe(400);
    expect(wrongFormat.body.message).toContain('body.from.format');
  });

  test('ending a sandbox (or any account) drops the faults scoped to it, and only those', async () => {
    const { app, parent, fork } = setup();
    const sb = (await fork({ from: parent.sid })).body;
    const fault = (body: unknown) => request(app).post('/__admin/faults').type('json').send(JSON.stringify(body));
    await fault({ account: sb.sid, status: 500 });
    const kept = (await fault({ account: parent.sid, status: 502 })).body;
    const global = (await fault({ path: '/nowhere', status: 503 })).body;
    await request(app).delete(`/__admin/sandboxes/${sb.sid}`);
    expect((await request(app).get('/__admin/faults')).body.faults.map((f: Item) => f['id'])).toEqual([
      kept.id,
      global.id,
    ]);
    await request(app).delete(`/__admin/accounts/${parent.sid}`);
    expect((await request(app).get('/__admin/faults')).body.faults.map((f: Item) => f['id'])).toEqual([global.id]);
  });

  test('sibling sandboxes give their n-th inserts sids of their own; seeded and inherited records keep theirs', async () => {
    const { app, parent, fork, insert } = setup();
    const [before] = (await insert(parent.sid, [{}])).body as Item[];
    const one = (await fork({ from: parent.sid })).body;
    const two = (await fork({ from: parent.sid })).body;
    const recordingOf = async (sid: string, callSid: string) =>
      (
        await request(app)
          .post(`/__admin/accounts/${sid}/recordings`)
          .type('json')
          .send(JSON.stringify([{ call_sid: callSid }]))
      ).body[0] as Item;
    const answered = [{ status: 'completed', duration: 60 }];
    const [a] = (await insert(one.sid, answered)).body as Item[];
    const [b] = (await insert(two.sid, answered)).body as Item[];
    const [p] = (await insert(parent.sid, answered)).body as Item[];
    expect(new Set([a!['sid'], b!['sid'], p!['sid']]).size).toBe(3);
    // Everything else about the insert is drawn as before: the same defaults in both siblings.
    const { sid: _a, account_sid: _x, uri: _u, subresource_uris: _s, ...restA } = a!;
    const { sid: _b, account_sid: _y, uri: _v, subresource_uris: _t, ...restB } = b!;
    expect(restA).toEqual(restB);
    const ra = await recordingOf(one.sid, a!['sid']);
    const rb = await recordingOf(two.sid, b!['sid']);
    expect(ra['sid']).not.toBe(rb['sid']);
    // The call inserted before the forks is the same record in all three.
    for (const sb of [one, two]) {
      const res = await request(app)
        .get(`/call/2012-04-24/Accounts/${sb.sid}/Calls/${before!['sid']}.json`)
        .auth(sb.token, '');
      expect(res.status).toBe(200);
    }
    // Taken through the same steps, the two still hash alike: the sids drawn from identity are left out.
    const hash = async (sid: string) => (await request(app).get(`/__admin/accounts/${sid}/state/hash`)).body.hash;
    expect(await hash(one.sid)).toBe(await hash(two.sid));
  });

  test('a record deleted in a sandbox is a 404 there, as in any account, though its parent still has it', async () => {
    const { app, parent, fork, insert, list } = setup();
    const [inserted] = (await insert(parent.sid, [{}])).body as Item[];
    const sb = (await fork({ from: parent.sid })).body;
    const seeded = (await list(sb.sid, sb.token, 'PageSize=3')).calls[2] as Item;
    const recording = (
      await request(app).get(`/call/2012-04-24/Accounts/${sb.sid}/Recordings.json?PageSize=1`).auth(sb.token, '')
    ).body.recordings[0] as Item;
    const get = (path: string, token: string) => request(app).get(path).auth(token, '');
    const callPath = (sid: string, call: string) => `/call/2012-04-24/Accounts/${sid}/Calls/${call}.json`;
    const recPath = (sid: string, rec: string) => `/call/2012-04-24/Accounts/${sid}/Recordings/${rec}.json`;
    for (const call of [seeded['sid'], inserted!['sid']]) {
      expect((await request(app).delete(`/__admin/accounts/${sb.sid}/calls/${call}`)).status).toBe(200);
      const gone = await get(callPath(sb.sid, call), sb.token);
      expect([gone.status, gone.body]).toEqual([404, { message: messages.noCall(sb.sid, call) }]);
      expect((await get(callPath(parent.sid, call), parent.token)).status).toBe(200);
    }
    await request(app).delete(`/__admin/accounts/${sb.sid}/recordings/${recording['sid']}`);
    const gone = await get(recPath(sb.sid, recording['sid']), sb.token);
    expect([gone.status, gone.body]).toEqual([404, { message: messages.noRecording(sb.sid, recording['sid']) }]);
    // A record that was never this account's is still another account's: 403, as production's secure().
    const [theirs] = (await insert(parent.sid, [{}])).body as Item[];
    const other = await get(callPath(sb.sid, theirs!['sid']), sb.token);
    expect([other.status, other.body]).toEqual([403, { message: messages.forbiddenRecord(theirs!['sid']) }]);
  });

  test('DELETE /__admin/sandboxes?run= ends the sandboxes a test run tagged, and only those', async () => {
    const { app, parent, fork } = setup();
    const mine = [
      (await fork({ from: parent.sid, run: 'run-1' })).body,
      (await fork({ from: parent.sid, run: 'run-1' })).body,
    ];
    const theirs = (await fork({ from: parent.sid, run: 'run-2' })).body;
    const untagged = (await fork({ from: parent.sid })).body;
    expect(mine[0].run).toBe('run-1');
    expect(untagged.run).toBeUndefined();
    const res = await request(app).delete('/__admin/sandboxes?run=run-1');
    expect(res.body).toEqual({ status: 'deleted', run: 'run-1', sids: mine.map((m) => m.sid) });
    const left = (await request(app).get('/__admin/sandboxes')).body.sandboxes as Item[];
    expect(left.map((l) => [l['sid'], l['run']])).toEqual([
      [theirs.sid, 'run-2'],
      [untagged.sid, undefined],
    ]);
    for (const bad of ['', '?run=', '?run=a%20b', '?runs=run-2']) {
      expect((await request(app).delete(`/__admin/sandboxes${bad}`)).status).toBe(400);
    }
    expect((await fork({ from: parent.sid, run: 7 })).status).toBe(400);
  });

  test.each([
    [{ from: 'x', ttl_s: 0 }, 400],
    [{}, 400],
    [{ from: 42 }, 400],
    [{ from: [] }, 400],
    [{ from: { format: 1 } }, 400],
    [{ from: `AC${'0'.repeat(32)}` }, 404],
    [{ from: 'x', extra: 1 }, 400],
  ])('%j is refused with %d', async (body, status) => {
    const { fork } = setup();
    expect((await fork(body)).status).toBe(status);
  });
});
