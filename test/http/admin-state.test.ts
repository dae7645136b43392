import request from 'supertest';
import { exportAccountState, exportState } from '../../src/admin/state';
import { authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

async function writeSome(app: ReturnType<typeof makeEmulator>['app'], world: ReturnType<typeof makeEmulator>['world']) {
  const a = byCalls(world, 448);
  const b = byCalls(world, 50);
  await request(app)
    .post(`/__admin/accounts/${a.sid}/calls`)
    .type('json')
    .send([{ from: 'alice' }, { status: 'no-answer' }])
    .expect(201);
  await request(app)
    .delete(`/__admin/accounts/${a.sid}/calls/${a.store.calls.get(0).sid}`)
    .expect(200);
  await request(app).post(`/__admin/accounts/${b.sid}/recordings`).type('json').send({}).expect(201);
  await request(app)
    .delete(`/__admin/accounts/${b.sid}/recordings/${b.store.recordings.get(5).sid}`)
    .expect(200);
  await request(app)
    .post('/__admin/accounts')
    .type('json')
    .send({ friendly_name: 'Made later', calls: 9, recordings: 2 })
    .expect(201);
  await request(app)
    .delete(`/__admin/accounts/${byCalls(world, 0).sid}`)
    .expect(200);
  return { a, b };
}

describe('state export and import', () => {
  test('the round trip is byte-identical, into a fresh emulator too, and the API agrees', async () => {
    const one = makeEmulator();
    const { a, b } = await writeSome(one.app, one.world);
    const exported = await request(one.app).get('/__admin/state');
    expect(exported.body).toMatchObject({ format: 1, seed: 'callrec', clock: '2025-06-01T12:00:00.000Z' });
    const two = makeEmulator({ seed: 'something else' });
    const put = await request(two.app).put('/__admin/state').type('json').send(exported.body);
    expect(put.status).toBe(200);
    const again = await request(two.app).get('/__admin/state');
    expect(again.text).toBe(exported.text);
    const hash1 = await request(one.app).get('/__admin/state/hash');
    const hash2 = await request(two.app).get('/__admin/state/hash');
    expect(hash2.body.hash).toBe(hash1.body.hash);
    expect(put.body.hash).toBe(hash1.body.hash);
    for (const acct of [a, b]) {
      for (const path of [
        callsPath(acct.sid),
        `${callsPath(acct.sid)}?SortBy=From:desc&PageSize=100`,
        recordingsPath(acct.sid),
      ]) {
        expect((await authGet(two.app, path, acct.token)).text).toBe((await authGet(one.app, path, acct.token)).text);
      }
    }
    // Later inserts continue alike: the insert counters came along.
    const next1 = await request(one.app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({});
    const next2 = await request(two.app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({});
    expect(next2.body).toEqual(next1.body);
  });

  test("GET /__admin/state and an account's state stream exactly the export", async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    await request(app)
      .post(`/__admin/accounts/${a.sid}/calls`)
      .type('json')
      .send(JSON.stringify(Array.from({ length: 3000 }, () => ({}))));
    const expected = JSON.stringify(exportState(world));
    const res = await request(app).get('/__admin/state');
    expect([res.status, res.headers['content-type']]).toEqual([200, 'application/json; charset=utf-8']);
    expect(res.text).toBe(expected);
    const one = await request(app).get(`/__admin/accounts/${a.sid}/state`);
    expect(one.text).toBe(JSON.stringify(exportAccountState(world, a.store)));
  });

  test('the hash changes with any write and with the public URL, not with reads', async () => {
    const em = makeEmulator();
    const h = async () => (await request(em.app).get('/__admin/state/hash')).body.hash as string;
    const first = await h();
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    const a = byCalls(em.world, 448);
    await authGet(em.app, callsPath(a.sid), a.token);
    expect(await h()).toBe(first);
    await request(em.app).post(`/__admin/accounts/${a.sid}/calls`).type('json').send({});
    const second = await h();
    expect(second).not.toBe(first);
    await request(em.app).post('/__admin/reset').type('json');
    expect(await h()).toBe(first);
  });

  test.each([
    [{ format: 2 }, 'state.format'],
    [
      { format: 1, seed: '', clock: '2025-06-01T12:00:00.000Z', fixtures: { accounts: [] }, accounts: [] },
      'state.seed',
    ],
    [{ format: 1, seed: 's', clock: 'later', fixtures: { accounts: [] }, accounts: [] }, 'state.clock'],
    [
      {
        format: 1,
        seed: 's',
        clock: '2025-06-01T12:00:00.000Z',
        fixtures: { accounts: [] },
        accounts: [{ friendly_name: 'X', sid: `AC${'1'.repeat(32)}`, token: 't', inserted_calls: [{ duration: -4 }] }],
      },
      'state.accounts[0].inserted_calls[0].duration',
    ],
    [
      {
        format: 1,
        seed: 's',
        clock: '2025-06-01T12:00:00.000Z',
        fixtures: { accounts: [] },
        accounts: [{ friendly_name: 'X', sid: `AC${'1'.repeat(32)}`, token: 't', deleted_calls: ['nope'] }],
      },
      'state.accounts[0].deleted_calls[0]',
    ],
  ])('a bad state %j → 400 naming %s, nothing changed', async (state, field) => {
    const em = makeEmulator();
    const before = (await request(em.app).get('/__admin/state')).text;
    const res = await request(em.app).put('/__admin/state').type('json').send(state);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect((await request(em.app).get('/__admin/state')).text).toBe(before);
  });
});
