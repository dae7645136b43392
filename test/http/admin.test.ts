import request from 'supertest';
import { VERSION } from '../../src/version';
import { authGet, byCalls, callsPath, defaultAccounts, makeEmulator } from '../support/app';

const { app, world } = makeEmulator();

describe('admin', () => {
  test('GET /__admin/health', async () => {
    const res = await request(app).get('/__admin/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', version: VERSION, seed: 'callrec', accounts: defaultAccounts.length });
    expect(typeof res.body.uptime_s).toBe('number');
  });

  test('GET /__admin/accounts lists sid, token, friendly_name and counts', async () => {
    const res = await request(app).get('/__admin/accounts');
    expect(res.status).toBe(200);
    expect(res.body.accounts).toHaveLength(defaultAccounts.length);
    for (const [i, a] of (res.body.accounts as Record<string, unknown>[]).entries()) {
      expect(Object.keys(a)).toEqual(['sid', 'token', 'friendly_name', 'calls', 'recordings']);
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
    const reset = await request(app).post('/__admin/reset');
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
