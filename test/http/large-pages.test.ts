import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { STREAM_THRESHOLD, streamPage } from '../../src/routes/send-page';
import { authGet, byCalls, callsPath, makeEmulator, recordingsPath } from '../support/app';

const { app, world } = makeEmulator({
  accounts: [{ friendlyName: 'Big', calls: 6000, recordings: 3000 }],
});
const a = byCalls(world, 6000);

describe('pages larger than the streaming threshold', () => {
  test('PageSize=99999999 streams the whole list, identical to the pages joined', async () => {
    const whole = await authGet(app, `${callsPath(a.sid)}?PageSize=99999999`, a.token);
    expect(whole.status).toBe(200);
    expect(whole.headers['transfer-encoding']).toBe('chunked');
    expect(whole.headers['content-length']).toBeUndefined();
    expect(whole.body).toMatchObject({ total: 6000, num_pages: 0, start: '0', end: '6000', next_page_uri: 'null' });
    const sids: string[] = [];
    for (let page = 0; page < 6; page++) {
      const res = await authGet(app, `${callsPath(a.sid)}?Page=${page}&PageSize=1000`, a.token);
      sids.push(...(res.body.calls as { sid: string }[]).map((c) => c.sid));
    }
    expect((whole.body.calls as { sid: string }[]).map((c) => c.sid)).toEqual(sids);
  });

  test('a streamed page is the same bytes a built page would be', async () => {
    const res = await authGet(
      app,
      `${recordingsPath(a.sid)}?PageSize=${STREAM_THRESHOLD + 1}&SortBy=Duration:desc`,
      a.token,
    );
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const items = (res.body.recordings as unknown[]).map((r) => JSON.stringify(r));
    const rebuilt = `${res.text.slice(0, res.text.indexOf('"recordings":[') + 14)}${items.join(',')}]}`;
    expect(res.text).toBe(rebuilt);
    expect(items).toHaveLength(STREAM_THRESHOLD + 1);
  });

  test('a slow reader applies backpressure, and a client that leaves stops the writer', async () => {
    const ITEMS = 200_000;
    let rendered = 0;
    let finished = false;
    const slowApp = express();
    slowApp.get('/', async (_req, res) => {
      await streamPage(res, 'json', '{"items":[', ']}', ITEMS, () => {
        rendered++;
        return `"${'x'.repeat(1000)}"`;
      });
      finished = true;
    });
    const server = http.createServer(slowApp);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      const req = http.get({ port, host: '127.0.0.1', path: '/' });
      const res = await new Promise<http.IncomingMessage>((r) => req.on('response', r));
      res.pause();
      await wait(300);
      // 200 MB of body; while nobody reads, the writer stops after what the socket buffers hold.
      const whilePaused = rendered;
      expect(whilePaused).toBeLessThan(ITEMS / 10);
      await wait(200);
      expect(rendered).toBe(whilePaused);
      req.destroy();
      await wait(200);
      const afterLeave = rendered;
      await wait(200);
      expect(rendered).toBe(afterLeave);
      expect(rendered).toBeLessThan(ITEMS);
      expect(finished).toBe(true);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
