import request from 'supertest';
import { messages, problems } from '../../src/errors';
import { authGet, byCalls, makeEmulator } from '../support/app';

const version = (res: { headers: Record<string, string> }) => Number(res.headers['x-callrec-version']);

describe('the write log in one process', () => {
  test('each write answers the next version; reads say the version they saw; GET and a POST query write nothing', async () => {
    const { app, world } = makeEmulator();
    const main = byCalls(world, 448);
    const steps = [
      await request(app).post(`/__admin/accounts/${main.sid}/calls`).send([{}]),
      await request(app).post('/__admin/clock').send({ advance: 60 }),
      await request(app).post('/__admin/sandboxes').send({ from: main.sid }),
    ];
    expect(steps.map((r) => r.status)).toEqual([201, 200, 201]);
    expect(steps.map(version)).toEqual([1, 2, 3]);
    const counts = await request(app)
      .post(`/__admin/accounts/${main.sid}/recording-counts`)
      .send({ calls: [steps[0]?.body[0].sid] });
    expect(counts.status).toBe(200);
    expect(version(counts)).toBe(3);
    expect(version(await request(app).get('/__admin/accounts'))).toBe(3);
  });

  test('a refused write is ordered too (it changes nothing anywhere), and the next write follows it', async () => {
    const { app, world } = makeEmulator();
    const main = byCalls(world, 448);
    const before = (await request(app).get('/__admin/state/hash')).body.hash;
    const refused = await request(app).post('/__admin/clock').send({ advance: -5 });
    expect(refused.status).toBe(400);
    expect((await request(app).get('/__admin/state/hash')).body.hash).toBe(before);
    const next = await request(app).post(`/__admin/accounts/${main.sid}/calls`).send([{}]);
    expect(version(next)).toBe(2);
    expect((await request(app).get('/__admin/health')).body.log).toEqual({
      version: 2,
      where: 'this process',
      up: true,
      halted: null,
    });
  });

  test('a request naming a version waits for it, then sees the write; one never reached is a 503 after the wait', async () => {
    const { app, world } = makeEmulator({ versionWaitMs: 300 });
    const main = byCalls(world, 448);
    // Asked before the write exists: answered once it is applied, with it.
    const waiting = request(app)
      .get(`/call/2012-04-24/Accounts/${main.sid}/Calls.json?PageSize=1`)
      .auth(main.token, '')
      .set('X-Callrec-Version', '1')
      .then((r) => r);
    const write = await request(app)
      .post(`/__admin/accounts/${main.sid}/calls`)
      .send([{ from: '+15550001111' }]);
    const seen = await waiting;
    expect(seen.status).toBe(200);
    expect(seen.body.total).toBe(449);
    expect(seen.body.calls[0].sid).toBe(write.body[0].sid);

    const never = await request(app).get('/__admin/health').set('X-Callrec-Version', '7');
    expect(never.status).toBe(503);
    expect(never.body).toEqual({ message: messages.versionNotReached(7, 1, 300) });
    const bad = await request(app).get('/__admin/health').set('X-Callrec-Version', '-1');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^X-Callrec-Version: must be an integer from 0 to /);
  });

  test('concurrent writes are applied one at a time in log order: a slow one never interleaves with another', async () => {
    const { app, world } = makeEmulator();
    const main = byCalls(world, 448);
    const state = (await request(app).get(`/__admin/accounts/${main.sid}/state`)).body;
    // A sandbox forked from a state export (long work, in slices) and inserts sent meanwhile.
    const sent = [
      request(app).post('/__admin/sandboxes').send({ from: state, name: 'from state' }),
      ...[1, 2, 3].map(() => request(app).post(`/__admin/accounts/${main.sid}/calls`).send([{}])),
    ].map((r) => r.then((x) => x));
    const answers = await Promise.all(sent);
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    expect(answers.map(version).sort()).toEqual([1, 2, 3, 4]);
    expect(world.account(main.sid)?.calls.count).toBe(451);
  });
});

describe('?fleet=true in one process: the fleet is this replica alone', () => {
  test('the journal and the walks report name their replica, and the counts are per replica beside the sums', async () => {
    const { app, world } = makeEmulator();
    const main = byCalls(world, 448);
    const list = `/call/2012-04-24/Accounts/${main.sid}/Calls.json`;
    for (const page of [0, 1]) {
      expect((await authGet(app, `${list}?Page=${page}&PageSize=200`, main.token)).status).toBe(200);
    }
    const own = await request(app).get('/__admin/requests');
    const fleet = await request(app).get('/__admin/requests?fleet=true&limit=1');
    expect(fleet.status).toBe(200);
    expect(fleet.body).toEqual({
      requests: [{ ...own.body.requests[0], replica: 'local' }],
      matched: 2,
      size: own.body.size,
      held: 2,
      seen: 2,
      replicas: [{ replica: 'local', matched: 2, size: own.body.size, held: 2, seen: 2 }],
    });
    const walks = await request(app).get(`/__admin/walks?fleet=true&account=${main.sid}`);
    const alone = await request(app).get(`/__admin/walks?account=${main.sid}`);
    expect(walks.body.walks).toEqual([{ ...alone.body.walks[0], replicas: ['local', 'local'] }]);
    expect(alone.body.walks[0].replicas).toBeUndefined();
  });

  test('fleet takes true or false only', async () => {
    const { app } = makeEmulator();
    for (const path of ['/__admin/requests', '/__admin/walks']) {
      const bad = await request(app).get(`${path}?fleet=yes`);
      expect([bad.status, bad.body.message]).toEqual([400, `query.fleet: ${problems.flag('yes')}`]);
      expect((await request(app).get(`${path}?fleet=false`)).status).toBe(200);
    }
  });
});
