import request from 'supertest';
import { VERSION } from '../../src/version';
import { authGet, byCalls, callsPath, defaultAccounts, makeEmulator } from '../support/app';

const { app, world } = makeEmulator();

describe('admin', () => {
  test('GET /__admin/accounts?detail=true: each account with its clock and traffic; bad queries are 400', async () => {
    const { app: one, world: w } = makeEmulator({
      accounts: [
        { friendlyName: 'Quiet', calls: 3, recordings: 0 },
        { friendlyName: 'Busy', calls: 3, recordings: 0, traffic: { callsPerHour: 60 } },
      ],
    });
    const plain = (await request(one).get('/__admin/accounts')).body.accounts;
    const detailed = (await request(one).get('/__admin/accounts?detail=true')).body.accounts;
    const extra = (a: Record<string, unknown>) => [
      a['now'],
      a['traffic'],
      a['hazards'],
      a['restarts'],
      a['parent'],
      a['role'],
    ];
    expect(detailed.map(extra)).toEqual([
      ['2025-06-01T12:00:00.000Z', null, null, [], null, 'Developer'],
      ['2025-06-01T12:00:00.000Z', { calls_per_hour: 60 }, null, [], null, 'Developer'],
    ]);
    const rest = ({
      now: _n,
      traffic: _t,
      hazards: _h,
      restarts: _r,
      parent: _p,
      role: _o,
      ...others
    }: Record<string, unknown>) => others;
    expect(detailed.map(rest)).toEqual(plain);
    expect(w.accounts()).toHaveLength(2);
    for (const bad of ['detail=yes', 'details=true']) {
      expect((await request(one).get(`/__admin/accounts?${bad}`)).status).toBe(400);
    }
  });

  test('GET /__admin/health', async () => {
    const res = await request(app).get('/__admin/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      version: VERSION,
      seed: 'callrec',
      accounts: defaultAccounts.length,
    });
    expect(typeof res.body.uptime_s).toBe('number');
  });

  test('GET /__admin/accounts lists sid, token, friendly_name and counts', async () => {
    const res = await request(app).get('/__admin/accounts');
    expect(res.status).toBe(200);
    expect(res.body.accounts).toHaveLength(defaultAccounts.length);
    for (const [i, a] of (res.body.accounts as Record<string, unknown>[]).entries()) {
      expect(Object.keys(a)).toEqual(['sid', 'token', 'api_key', 'friendly_name', 'calls', 'recordings']);
      expect(a).toMatchObject({
        friendly_name: defaultAccounts[i]!.friendlyName,
        calls: defaultAccounts[i]!.calls,
        recordings: defaultAccounts[i]!.recordings,
      });
      // The listed token opens the listed account.
      const list = await authGet(app, callsPath(a.sid as string), a.token as string);
      expect(list.status).toBe(200);
    }
  });

  test('POST /__admin/reset gives back the seeded state, byte for byte', async () => {
    const a = byCalls(world, 448);
    const path = `${callsPath(a.sid)}?SortBy=From:desc&PageSize=20&Page=3`;
    const before = await authGet(app, path, a.token);
    const reset = await request(app).post('/__admin/reset').type('json');
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ status: 'reset', seed: 'callrec' });
    const after = await authGet(app, path, a.token);
    expect(after.text).toBe(before.text);
  });

  test.each([
    ['post', '/__admin/health'],
    ['delete', '/__admin/accounts'],
    ['get', '/__admin/reset'],
  ] as const)('%s %s → 405', async (method, path) => {
    const res = await request(app)[method](path);
    expect(res.status).toBe(405);
    expect(res.body.message).toContain('not allowed');
  });
});

describe('every admin route refuses methods it does not serve', () => {
  const sid = `AC${'1'.repeat(32)}`;
  test.each([
    ['patch', '/__admin/health', 'GET, HEAD'],
    ['put', '/__admin/reset', 'POST'],
    ['get', '/__admin/seed', 'POST'],
    ['put', '/__admin/accounts', 'GET, HEAD, POST'],
    ['post', `/__admin/accounts/${sid}`, 'GET, HEAD, DELETE'],
    ['delete', `/__admin/accounts/${sid}/reset`, 'POST'],
    ['get', `/__admin/accounts/${sid}/calls`, 'POST'],
    ['post', `/__admin/accounts/${sid}/calls/x`, 'DELETE'],
    ['get', `/__admin/accounts/${sid}/recordings`, 'POST'],
    ['get', `/__admin/accounts/${sid}/recordings/x`, 'DELETE'],
    ['post', '/__admin/state', 'GET, HEAD, PUT'],
    ['post', '/__admin/state/hash', 'GET, HEAD'],
    ['post', '/__admin/requests', 'GET, HEAD, DELETE'],
    ['put', '/__admin/faults', 'GET, HEAD, POST, DELETE'],
    ['post', '/__admin/faults/fault-1', 'GET, HEAD, DELETE'],
    ['delete', '/__admin/provider-states', 'GET, HEAD, POST'],
  ] as const)('%s %s → 405, Allow: %s', async (method, path, allow) => {
    const res = await request(app)[method](path);
    expect(res.status).toBe(405);
    expect(res.headers['allow']).toBe(allow);
    expect(res.body.message).toContain('not allowed');
  });
});
