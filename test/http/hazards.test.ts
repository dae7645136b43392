import request from 'supertest';
import { problems, ValidationError } from '../../src/errors';
import { makeEmulator } from '../support/app';

type Item = Record<string, any>;
const LAGGED = {
  friendlyName: 'Lagged',
  calls: 20,
  recordings: 0,
  traffic: { callsPerHour: 600 },
  hazards: { commitLagS: 300, instances: null },
};
const NODES = {
  friendlyName: 'Nodes',
  calls: 20,
  recordings: 0,
  traffic: { callsPerHour: 600 },
  hazards: { commitLagS: 0, instances: { count: 3, maxSkewS: 60 } },
};
const PLAIN = { friendlyName: 'Plain', calls: 20, recordings: 0, traffic: { callsPerHour: 600 } };

function setup() {
  const em = makeEmulator({ accounts: [LAGGED, NODES, PLAIN] });
  const [lagged, nodes, plain] = em.world.accounts() as [any, any, any];
  const admin = (method: 'get' | 'post' | 'delete' | 'put', path: string, body?: unknown) => {
    const r = request(em.app)[method](`/__admin${path}`);
    return body === undefined ? r : r.type('json').send(JSON.stringify(body));
  };
  const calls = async (account: any, query = 'PageSize=1000', password = '') =>
    (
      await request(em.app)
        .get(`/call/2012-04-24/Accounts/${account.profile.sid}/Calls.json?${query}`)
        .auth(account.profile.token, password)
    ).body as Item;
  const call = (account: any, sid: string) =>
    request(em.app)
      .get(`/call/2012-04-24/Accounts/${account.profile.sid}/Calls/${sid}.json`)
      .auth(account.profile.token, '');
  const move = (advance: string | number) => admin('post', '/clock', { advance });
  return { ...em, lagged, nodes, plain, admin, calls, call, move };
}

const dateOf = (c: Item) => Date.parse(c['date_created']);

describe('production hazards: commit lag', () => {
  test('rows appear out of date order: a call dated before one already listed shows up later', async () => {
    const { lagged, calls, move } = setup();
    await move('PT1H');
    const before = (await calls(lagged)).calls as Item[];
    const seen = new Set(before.map((c) => c['sid']));
    const newest = dateOf(before[0] as Item);
    await move('PT5M');
    const after = (await calls(lagged)).calls as Item[];
    const late = after.filter((c) => !seen.has(c['sid']) && dateOf(c) < newest);
    expect(late.length).toBeGreaterThan(0);
    // Every call then listed is still listed: rows only appear.
    expect(before.every((c) => after.some((a) => a['sid'] === c['sid']))).toBe(true);
  });

  test('a row not yet committed is in no list and a 404 by sid; once committed, it is both', async () => {
    const { lagged, calls, call, move, world } = setup();
    await move('PT1H');
    const account = world.account(lagged.profile.sid) as any;
    // An arrival dated before now whose row commits after now.
    const now = world.nowMs;
    let j = 0;
    while (!(account.trafficCalls.appearMs(j) > now && account.trafficCalls.written(j).outcome.startSec * 1000 <= now))
      j++;
    const { outcome, appearMs } = account.trafficCalls.written(j);
    expect((await call(lagged, outcome.sid)).status).toBe(404);
    expect(((await calls(lagged)).calls as Item[]).some((c) => c['sid'] === outcome.sid)).toBe(false);
    await move(Math.ceil((appearMs - now) / 1000));
    expect((await call(lagged, outcome.sid)).status).toBe(200);
    expect(((await calls(lagged)).calls as Item[]).some((c) => c['sid'] === outcome.sid)).toBe(true);
  });

  test('without hazards, every arrival dated at or before the clock is listed', async () => {
    const { plain, calls, move, world } = setup();
    await move('PT1H');
    const listed = (await calls(plain)).calls as Item[];
    expect(listed.every((c) => dateOf(c) <= world.nowMs)).toBe(true);
    expect(dateOf(listed[0] as Item)).toBeGreaterThan(world.nowMs - 60_000);
  });
});

describe('production hazards: several nodes with skewed clocks', () => {
  test("the account's calls carry its nodes' InstanceIds, shown with their skews in /health and the accounts' detail", async () => {
    const { nodes, calls, move, admin } = setup();
    await move('PT1H');
    const health = (await admin('get', '/health')).body;
    const entry = health.hazards.find((h: Item) => h['account'] === nodes.profile.sid);
    expect(entry.hazards.commit_lag_s).toBe(0);
    expect(entry.hazards.instances).toHaveLength(3);
    const ids = entry.hazards.instances.map((n: Item) => n['instance_id']);
    const listed = ((await calls(nodes, 'PageSize=50')).calls as Item[]).map((c) => c['InstanceId']);
    expect(new Set(listed)).toEqual(new Set(ids));
    const detail = (await admin('get', '/accounts?detail=true')).body.accounts.find(
      (a: Item) => a['sid'] === nodes.profile.sid,
    );
    expect(detail.hazards).toEqual(entry.hazards);
    expect(health.hazards.map((h: Item) => h['account'])).not.toContain(
      (await admin('get', '/accounts')).body.accounts[2].sid,
    );
  });

  test("a call appears at its date less its node's skew: a node behind is listed late, a node ahead early", async () => {
    const { nodes, calls, move, admin, world } = setup();
    await move('PT1H');
    const skews = new Map<string, number>(
      (await admin('get', '/accounts?detail=true')).body.accounts
        .find((a: Item) => a['sid'] === nodes.profile.sid)
        .hazards.instances.map((n: Item) => [n['instance_id'], n['skew_ms']]),
    );
    // Live traffic's calls (the seeded ones, dated before the clock's start, came from other nodes).
    const listed = ((await calls(nodes)).calls as Item[]).filter((c) => skews.has(c['InstanceId']));
    expect(listed.length).toBeGreaterThan(500);
    for (const c of listed) expect(dateOf(c) - (skews.get(c['InstanceId']) as number)).toBeLessThanOrEqual(world.nowMs);
    // The newest of each node: within a few slots of what its clock reads now.
    for (const [id, skew] of skews) {
      const newest = listed.find((c) => c['InstanceId'] === id) as Item;
      expect(world.nowMs + skew - dateOf(newest)).toBeLessThan(60_000);
    }
  });
});

describe('production hazards: the restart sweep', () => {
  test("a node's live calls become completed, status alone; other nodes' calls live on", async () => {
    const { nodes, calls, call, move, admin } = setup();
    await move('PT1H');
    const before = (await calls(nodes)).calls as Item[];
    const live = before.filter((c) => ['queued', 'ringing', 'in-progress'].includes(c['status'].toLowerCase()));
    expect(live.length).toBeGreaterThan(1);
    const node = live[0]?.['InstanceId'] as string;
    const res = await admin('post', `/accounts/${nodes.profile.sid}/restart`, { instance_id: node });
    expect(res.status).toBe(200);
    const ofNode = live.filter((c) => c['InstanceId'] === node);
    expect(res.body).toMatchObject({ status: 'restarted', instance_id: node, swept: ofNode.length });
    expect(res.body.restarts).toEqual([{ instance_id: node, at: '2025-06-01T13:00:00.000Z' }]);
    // Hours later, the swept calls are as the sweep left them; the others have ended.
    await move('PT6H');
    for (const c of live) {
      const now = (await call(nodes, c['sid'])).body as Item;
      if (c['InstanceId'] === node) {
        expect(now).toEqual({ ...c, status: 'completed' });
      } else {
        expect(now['status']).not.toMatch(/^(queued|ringing|in-progress)$/i);
        expect(now['date_updated']).not.toBe(c['date_updated']);
      }
    }
  });

  test('a restart of every node sweeps a live insert too; it is a write: exported, round-tripped, undone by a reset', async () => {
    const { plain, admin, calls, move } = setup();
    await move('PT30M');
    const [inserted] = (
      await admin('post', `/accounts/${plain.profile.sid}/calls`, [
        { status: 'ringing', end_time: '2025-06-01T12:40:00.000Z' },
      ])
    ).body as Item[];
    const res = await admin('post', `/accounts/${plain.profile.sid}/restart`);
    expect(res.status).toBe(200);
    expect(res.body.swept).toBeGreaterThan(1);
    await move('PT1H');
    const swept = ((await calls(plain)).calls as Item[]).find((c) => c['sid'] === inserted?.['sid']) as Item;
    expect(swept).toEqual({ ...inserted, status: 'completed' });
    const state = (await admin('get', `/accounts/${plain.profile.sid}/state`)).body;
    expect(state.account.restarts).toEqual([{ instance_id: null, at: '2025-06-01T12:30:00.000Z' }]);
    const hash = (await admin('get', `/accounts/${plain.profile.sid}/state/hash`)).body.hash;
    const world = (await admin('get', '/state')).body;
    expect((await admin('put', '/state', world)).status).toBe(200);
    expect((await admin('get', `/accounts/${plain.profile.sid}/state/hash`)).body.hash).toBe(hash);
    // A sandbox forks with the restart; a reset of the account undoes it.
    const fork = (await admin('post', '/sandboxes', { from: plain.profile.sid })).body;
    expect(fork.restarts).toEqual(state.account.restarts);
    await admin('post', `/accounts/${plain.profile.sid}/reset`);
    expect((await admin('get', `/accounts/${plain.profile.sid}/state`)).body.account.restarts).toBeUndefined();
  });

  test('bad restarts and bad hazards are 400s naming the field', async () => {
    const { plain, admin } = setup();
    const restart = await admin('post', `/accounts/${plain.profile.sid}/restart`, { instance_id: 'node-1' });
    expect(restart.status).toBe(400);
    expect(restart.body.message).toBe(
      new ValidationError('body.instance_id', problems.string('an InstanceId (ID and 32 hex digits)', 'node-1'))
        .message,
    );
    const noTraffic = await admin('post', '/accounts', { friendly_name: 'X', hazards: { commit_lag_s: 5 } });
    expect(noTraffic.body.message).toBe(new ValidationError('body.hazards', problems.hazardsNeedTraffic).message);
    for (const [hazards, field, problem] of [
      [{ commit_lag_s: 3601 }, 'commit_lag_s', problems.intRange(0, 3600, 3601)],
      [{ instances: { count: 0 } }, 'instances.count', problems.intRange(1, 16, 0)],
      [{ instances: { count: 2, max_skew_s: -1 } }, 'instances.max_skew_s', problems.intRange(0, 3600, -1)],
    ] as const) {
      const res = await admin('post', '/accounts', {
        friendly_name: 'X',
        traffic: { calls_per_hour: 60 },
        hazards,
      });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(new ValidationError(`body.hazards.${field}`, problem).message);
    }
    const sandbox = await admin('post', '/sandboxes', { from: plain.profile.sid, hazards: { lag: 1 } });
    expect(sandbox.status).toBe(400);
  });
});

describe('production hazards: per sandbox', () => {
  test("a sandbox has its parent's hazards, its own, or none; the same hazards give the same nodes", async () => {
    const { plain, nodes, admin } = setup();
    const inherit = (await admin('post', '/sandboxes', { from: nodes.profile.sid })).body;
    const parent = (await admin('get', '/accounts?detail=true')).body.accounts.find(
      (a: Item) => a['sid'] === nodes.profile.sid,
    );
    expect(inherit.hazards).toEqual(parent.hazards);
    const none = (await admin('post', '/sandboxes', { from: nodes.profile.sid, hazards: null })).body;
    expect(none.hazards).toBeNull();
    const own = (await admin('post', '/sandboxes', { from: plain.profile.sid, hazards: { commit_lag_s: 60 } })).body;
    expect(own.hazards).toEqual({ commit_lag_s: 60, instances: [] });
    const health = (await admin('get', '/health')).body.hazards.map((h: Item) => h['account']);
    expect(health).toEqual(expect.arrayContaining([inherit.sid, own.sid]));
    expect(health).not.toContain(none.sid);
  });
});

describe('production hazards: a pure function of (seed, fixtures, writes, clock)', () => {
  test('1 h + 1 h gives the bytes of 2 h, pages and state hash, with every hazard on and a restart made', async () => {
    const a = setup();
    const b = setup();
    await a.move('PT1H');
    await a.admin('post', `/accounts/${a.nodes.profile.sid}/restart`, {});
    await a.move('PT1H');
    await b.move('PT1H');
    await b.admin('post', `/accounts/${b.nodes.profile.sid}/restart`, {});
    await b.move('PT30M');
    await b.move('PT30M');
    for (const who of ['lagged', 'nodes'] as const) {
      for (const query of ['PageSize=1000', 'PageSize=50&Page=3&SortBy=Status:asc', 'PageSize=100&Status=completed']) {
        const [x, y] = [await a.calls(a[who], query), await b.calls(b[who], query)];
        expect(JSON.stringify(y)).toBe(JSON.stringify(x));
      }
      const hash = async (em: typeof a) =>
        (await em.admin('get', `/accounts/${em[who].profile.sid}/state/hash`)).body.hash as string;
      expect(await hash(b)).toBe(await hash(a));
    }
  });
});
