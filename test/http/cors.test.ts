import request from 'supertest';
import { byCalls, callsPath, makeEmulator } from '../support/app';

describe('--cors', () => {
  test('a preflight is answered, and answers carry the CORS headers, cached ones too', async () => {
    const { app, world } = makeEmulator({ cors: true });
    const a = byCalls(world, 448);
    const pre = await request(app)
      .options(callsPath(a.sid))
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'authorization');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
    expect(pre.headers['access-control-allow-headers']).toBe('authorization');
    expect(pre.headers['access-control-allow-methods']).toContain('GET');
    // Three: the second is kept, the third served from the cache.
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get(callsPath(a.sid)).auth(a.token, '').set('Origin', 'http://localhost:5173');
      expect(res.status).toBe(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toContain('X-Emulator-Warning');
    }
    expect(app.cache.responses.hits).toBe(1);
  });

  test('off by default: no CORS headers, and OPTIONS is a 405', async () => {
    const { app, world } = makeEmulator();
    const a = byCalls(world, 448);
    const res = await request(app).get(callsPath(a.sid)).auth(a.token, '').set('Origin', 'http://x.test');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect((await request(app).options(callsPath(a.sid))).status).toBe(405);
  });
});
