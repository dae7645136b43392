import request from 'supertest';
import { messages, problems, ValidationError } from '../../src/errors';
import type { CallRecord } from '../../src/generators/call-record';
import { allItems, authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

type Item = Record<string, any>;
const HEX = (c: string) => c.repeat(32);

describe('accounts', () => {
  test('create, list, use, delete', async () => {
    const { app } = makeEmulator();
    const created = await request(app)
      .post('/__admin/accounts')
      .type('json')
      .send({ friendly_name: 'New', calls: 12, recordings: 3 });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['sid', 'token', 'api_key', 'friendly_name', 'calls', 'recordings']);
    expect(created.body).toMatchObject({ friendly_name: 'New', calls: 12, recordings: 3 });
    const list = await authGet(app, callsPath(created.body.sid), created.body.token);
    expect(list.body.total).toBe(12);
    const all = await request(app).get('/__admin/accounts');
    expect(all.body.accounts.map((a: Item) => a.sid)).toContain(created.body.sid);
    expect((await request(app).delete(`/__admin/accounts/${created.body.sid}`)).body).toEqual({
      deleted: created.body.sid,
    });
    expect((await authGet(app, callsPath(created.body.sid), created.body.token)).status).toBe(401);
    expect((await request(app).delete(`/__admin/accounts/${created.body.sid}`)).status).toBe(404);
  });

  test('the same name twice gets two sids; a given token is kept; a taken token is refused', async () => {
    const { app } = makeEmulator();
    const a = await request(app).post('/__admin/accounts').type('json').send({ friendly_name: 'Twin', token: 'tok-1' });
    const b = await request(app).post('/__admin/accounts').type('json').send({ friendly_name: 'Twin' });
    expect(a.body.token).toBe('tok-1');
    expect(b.body.sid).not.toBe(a.body.sid);
    const dup = await request(app)
      .post('/__admin/accounts')
      .type('json')
      .send({ friendly_name: 'Other', token: 'tok-1' });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toContain('token');
  });

  test.each([
    [{}, 'body.friendly_name'],
    [{ friendly_name: 'X', calls: -1 }, 'body.calls'],
    [{ friendly_name: 'X', calls: 1, recordings: 5 }, 'body.recordings'],
    [{ friendly_name: 'X', colour: 'red' }, 'body.colour: unknown field'],
    [[1], 'body: must be a JSON object'],
  ])('bad body %j → 400 naming %s, nothing created', async (payload, field) => {
    const { app, world } = makeEmulator();
    const before = world.accounts().length;
    const res = await request(app)
      .post('/__admin/accounts')
      .type('json')
      .send(payload as object);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect(world.accounts().length).toBe(before);
  });

  test('malformed JSON and a missing body → 400', async () => {
    const { app } = makeEmulator();
    const bad = await request(app)
      .post('/__admin/accounts')
      .type('json')
      .set('Content-Type', 'application/json')
      .send('{"friendly_name":');
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
    const none = await request(app).post('/__admin/accounts').type('json');
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(messages.badBody('send JSON with Content-Type: application/json'));
  });
});

describe('inserting and deleting calls', () => {
  test('an inserted call shows at once, in the right place of every order', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const res = await request(app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({
      from: '+15550000001',
      to: 'zed',
      duration: 7,
      status: 'completed',
      date_created: 'Sat, 17 May 2025 10:00:00 +0000',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      from: '+15550000001',
      to: 'zed',
      duration: 7,
      status: 'completed',
      account_sid: a.sid,
    });
    // Created at date_created, answered after its ring (start_time), talking 7 s from the answer.
    expect(Date.parse(res.body.end_time) - Date.parse(res.body.start_time)).toBeGreaterThanOrEqual(7000);
    expect(Date.parse(res.body.end_time) - Date.parse(res.body.start_time)).toBeLessThan(8000);
    expect(Date.parse(res.body.start_time)).toBeGreaterThanOrEqual(Date.parse('2025-05-17T10:00:00Z'));
    expect(res.body.uri).toBe(`/2012-04-24/Accounts/${a.sid}/Calls/${res.body.sid}.json`);
    const def = await allItems(app, callsPath(a.sid), a.token, 'calls');
    expect(def).toHaveLength(51);
    expect(def.find((c) => c.sid === res.body.sid)).toEqual(res.body);
    for (let i = 1; i < def.length; i++)
      expect(Date.parse(def[i - 1]!.date_created as string)).toBeGreaterThan(
        Date.parse(def[i]!.date_created as string),
      );
    const byTo = await allItems(app, callsPath(a.sid), a.token, 'calls', '&SortBy=To:desc', 7);
    expect(byTo[0]!.sid).toBe(res.body.sid);
    const byDuration = await allItems(app, callsPath(a.sid), a.token, 'calls', '&SortBy=Duration:asc');
    const durations = byDuration.map((c) => c.duration as number);
    expect(durations).toEqual([...durations].sort((x, y) => x - y));
  });

  test('texts beyond ASCII in a page are sent as UTF-8, with the exact Content-Length', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    // U+00E9 is one byte in Latin-1 and two in UTF-8: a page copied as Latin-1 would show it.
    const names = ['café', 'zoë 😀', 'Ωmega'];
    for (const to of names) {
      const res = await request(app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({ to });
      expect(res.status).toBe(201);
    }
    const page = await authGet(app, `${callsPath(a.sid)}?PageSize=10`, a.token);
    expect(page.status).toBe(200);
    expect(Number(page.headers['content-length'])).toBe(Buffer.byteLength(page.text, 'utf8'));
    const tos = (page.body.calls as Item[]).map((c) => c.to as string);
    expect(tos).toEqual(expect.arrayContaining(names));
    // The seeded (ASCII) items around them are whole too.
    expect(page.body.calls).toHaveLength(10);
  });

  test('a call without a date heads the default order; an array inserts a batch', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const res = await request(app)
      .post(`/__admin/accounts/${a.sid}/calls`)
      .type('json')
      .send([{}, { status: 'busy', direction: 'outbound-api' }]);
    expect(res.status).toBe(201);
    expect(res.body).toHaveLength(2);
    expect(res.body[1]).toMatchObject({ status: 'BUSY', duration: 0 });
    expect(res.body[1].end_time).toBeUndefined();
    const first = await authGet(app, `${callsPath(a.sid)}?PageSize=2`, a.token);
    expect(first.body.total).toBe(450);
    expect(new Set(first.body.calls.map((c: Item) => c.sid))).toEqual(new Set(res.body.map((c: Item) => c.sid)));
  });

  test.each([
    [{ duration: -1 }, 'body.duration'],
    [{ status: 'answered' }, 'body.status: must be one of'],
    [{ status: 'ringing' }, 'body.end_time: a call inserted live'],
    [{ sid: 'CA123' }, 'body.sid'],
    [{ date_created: 'yesterday' }, 'body.date_created'],
    [{ date_created: 'Sat, 17 May 2025 10:00:00 +0900' }, 'calls are written in +0000'],
    [
      { start_time: '2025-05-17T10:00:00.000Z', end_time: '2025-05-17T10:00:05.000Z', duration: 9 },
      'body.duration: must be the whole seconds',
    ],
    [{ status: 'busy', direction: 'outbound-dial', duration: 4 }, 'body.duration: must be 0'],
    [{ status: 'FAILED', direction: 'outbound-api', duration: 4 }, 'body.duration: production writes no duration'],
    [{ uri: '/x' }, 'body.uri: derived by the emulator'],
    [{ api_version: '2010-04-01' }, 'body.api_version'],
    [{ account_sid: `AC${HEX('0')}` }, 'body.account_sid'],
    [{ price_unit: 'EUR' }, 'body.price_unit'],
    [{ colour: 'red' }, 'body.colour: unknown field'],
    [{ to: 5 }, 'body.to'],
  ])('bad call %j → 400 naming %s', async (payload, text) => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const res = await request(app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send(payload);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(text);
    expect(a.store.calls.count).toBe(50);
  });

  test('a bad record in a batch rejects the whole batch', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const res = await request(app)
      .post(`/__admin/accounts/${a.sid}/calls`)
      .type('json')
      .send([{}, {}, { duration: 'long' }]);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('body[2].duration');
    expect(a.store.calls.count).toBe(50);
  });

  test('the same insert five times works five times; calls without dates ended at the clock and head the list', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const sids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(app).post(`/__admin/accounts/${a.sid}/calls`).send({ duration: 60 });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'completed', duration: 60 });
      sids.push(res.body.sid as string);
    }
    const page = await authGet(app, `${callsPath(a.sid)}?PageSize=5`, a.token);
    expect(page.body.calls.map((c: { sid: string }) => c.sid).sort()).toEqual([...sids].sort());
    for (const c of page.body.calls as { date_updated: string; end_time: string }[]) {
      expect(c.date_updated).toBe('Sun, 1 Jun 2025 12:00:00 +0000');
      expect(Date.parse(c.end_time)).toBeLessThanOrEqual(Date.parse('2025-06-01T12:00:00Z'));
    }
  });

  test('a taken sid is refused, a seeded one too', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 50);
    const seededSid = a.store.calls.get(3).sid;
    const res = await request(app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({ sid: seededSid });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(new ValidationError('body.sid', problems.taken(seededSid)).message);
  });

  test('deleting a seeded call deletes its recordings; lists, pages and totals follow', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const recs = await allItems(app, recordingsPath(a.sid), a.token, 'recordings');
    const callSid = recs[0]!.call_sid as string;
    const onIt = recs.filter((r) => r.call_sid === callSid).length;
    const res = await request(app).delete(`/__admin/accounts/${a.sid}/calls/${callSid}`);
    expect(res.body).toEqual({ deleted: callSid, recordings_deleted: onIt });
    const calls = await allItems(app, callsPath(a.sid), a.token, 'calls', '&SortBy=From:asc', 100);
    expect(calls).toHaveLength(447);
    expect(calls.some((c) => c.sid === callSid)).toBe(false);
    const after = await allItems(app, recordingsPath(a.sid), a.token, 'recordings');
    expect(after).toHaveLength(160 - onIt);
    expect(after.some((r) => r.call_sid === callSid)).toBe(false);
    expect((await request(app).delete(`/__admin/accounts/${a.sid}/calls/${callSid}`)).status).toBe(404);
  });
});

describe('inserting and deleting recordings', () => {
  test('on a given call, inside it; deleted again', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    // A recording lies in a call's talk: the first answered call that talked 5 s or more.
    const answered = Array.from({ length: 448 }, (_, i) => a.store.calls.get(i));
    const call = answered.find((c) => c.status === 'completed' && (c.duration ?? 0) >= 5) as CallRecord;
    const res = await request(app)
      .post(`/__admin/accounts/${a.sid}/recordings`)
      .type('json')
      .send({ call_sid: call.sid, duration: '2.5' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ call_sid: call.sid, duration: '2.5', account_sid: a.sid });
    expect(res.body.file_uri).toBe(
      `http://127.0.0.1:8080/call/2012-04-24/Accounts/${a.sid}/Recordings/${res.body.sid}.wav`,
    );
    const list = await allItems(app, recordingsPath(a.sid), a.token, 'recordings', '&SortBy=CallSid:asc');
    expect(list).toHaveLength(161);
    const del = await request(app).delete(`/__admin/accounts/${a.sid}/recordings/${res.body.sid}`);
    expect(del.body).toEqual({ deleted: res.body.sid });
    expect((await authGet(app, recordingsPath(a.sid), a.token)).body.total).toBe(160);
  });

  test.each([
    [{ call_sid: `ID${HEX('1')}-CA${HEX('2')}` }, 'body.call_sid: no call'],
    [{ duration: 'x' }, 'body.duration'],
    [{ duration: 999999 }, 'body.duration: must be at most'],
    [{ date_created: 'Mon, 1 Jan 2001 00:00:00 +0000' }, 'body.date_created: must lie inside call'],
    [{ file_uri: 'x' }, 'body.file_uri: derived'],
  ])('bad recording %j → 400 naming %s', async (payload, text) => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const res = await request(app).post(`/__admin/accounts/${a.sid}/recordings`).type('json').send(payload);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(text);
  });
});

describe('resets', () => {
  test('per-account reset undoes that account only; a global reset undoes all, accounts included', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const b = byCalls(world, 50);
    const before = (await authGet(app, callsPath(a.sid), a.token)).text;
    await request(app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({});
    await request(app).post(`/__admin/accounts/${b.sid}/calls`).type('json').send({});
    const extra = await request(app).post('/__admin/accounts').type('json').send({ friendly_name: 'Extra' });
    const reset = await request(app).post(`/__admin/accounts/${a.sid}/reset`).type('json');
    expect(reset.body.account.calls).toBe(448);
    expect((await authGet(app, callsPath(a.sid), a.token)).text).toBe(before);
    expect((await authGet(app, callsPath(b.sid), b.token)).body.total).toBe(51);
    await request(app).post('/__admin/reset').type('json').expect(200);
    expect((await authGet(app, callsPath(b.sid), b.token)).body.total).toBe(50);
    expect(world.account(extra.body.sid)).toBeUndefined();
    expect(
      (
        await request(app)
          .post(`/__admin/accounts/AC${HEX('9')}/reset`)
          .type('json')
      ).status,
    ).toBe(404);
  });

  test('two suites on two accounts, with per-account resets, do not disturb each other', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const b = byCalls(world, 50);
    const suite = async (acct: typeof a, rounds: number) => {
      const baseline = (await authGet(app, callsPath(acct.sid), acct.token)).text;
      for (let r = 0; r < rounds; r++) {
        await request(app).post(`/__admin/accounts/${acct.sid}/calls`).type('json').send([{}, {}]);
        const mid = await authGet(app, callsPath(acct.sid), acct.token);
        expect(mid.body.total).toBe(acct.store.spec.calls + 2);
        await request(app).post(`/__admin/accounts/${acct.sid}/reset`).type('json').expect(200);
        expect((await authGet(app, callsPath(acct.sid), acct.token)).text).toBe(baseline);
      }
    };
    await Promise.all([suite(a, 15), suite(b, 15)]);
  });
});

describe('seed', () => {
  test('back to how it started: "fixtures": "start" brings back the accounts, {"start": true} the seed and clock too', async () => {
    const { app, world } = makeEmulator();
    const hash = async () => (await request(app).get('/__admin/state/hash')).body.hash as string;
    const started = await hash();
    const startSids = world.accounts().map((a) => a.profile.sid);
    const seed = (body: unknown) => request(app).post('/__admin/seed').type('json').send(JSON.stringify(body));
    await seed({ seed: 'other', clock: '2024-01-01T00:00:00Z', fixtures: { accounts: [{ friendly_name: 'Solo' }] } });
    await request(app).post('/__admin/reset');
    // A reset keeps the fixtures of the last seed.
    expect(world.accounts()).toHaveLength(1);
    expect((await seed({ fixtures: 'start' })).status).toBe(200);
    expect(world.seed).toBe('other');
    expect(world.accounts()).toHaveLength(startSids.length);
    const back = await seed({ start: true });
    expect([back.status, world.seed, await hash()]).toEqual([200, 'callrec', started]);
    expect(world.accounts().map((a) => a.profile.sid)).toEqual(startSids);
    const alone = await seed({ start: true, seed: 'x' });
    expect([alone.status, alone.body.message]).toEqual([400, `body.start: ${problems.startAlone}`]);
    expect((await seed({ start: 'yes' })).body.message).toBe(`body.start: ${problems.boolean}`);
  });

  test('a new seed rebuilds; reset then returns to it; bad input changes nothing', async () => {
    const { app, world } = makeEmulator();
    const old = world.accounts()[0]!.profile.sid;
    const res = await request(app)
      .post('/__admin/seed')
      .type('json')
      .send({ seed: 'other', fixtures: { accounts: [{ friendly_name: 'Solo', calls: 3 }] } });
    expect(res.status).toBe(200);
    expect(res.body.accounts).toHaveLength(1);
    expect(res.body.accounts[0].sid).not.toBe(old);
    await request(app).post('/__admin/reset').type('json');
    expect(world.seed).toBe('other');
    expect(world.accounts()).toHaveLength(1);
    for (const bad of [
      { seed: '' },
      { seed: 5 },
      { fixtures: { accounts: [{}] } },
      { seed: 'x', extra: 1 },
      { clock: 'soon' },
    ]) {
      const r = await request(app).post('/__admin/seed').type('json').send(bad);
      expect(r.status).toBe(400);
      expect(world.seed).toBe('other');
    }
  });
});
