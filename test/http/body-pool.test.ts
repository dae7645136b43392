import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import request from 'supertest';
import { bodies } from '../../src/cache/body-pool';
import { BODY_BYTES } from '../../src/journal/journal';
import { authGet, byCalls, callsPath, makeEmulator } from '../support/app';

// A page built for one request is written from a buffer of the pool, which the next page reuses
// once this one's response has closed: these tests pin that no byte is reused too early.

const { app, world } = makeEmulator({ accounts: [{ friendlyName: 'Big', calls: 5000, recordings: 0 }] });
const a = byCalls(world, 5000);
const auth = `Basic ${Buffer.from(`${a.token}:`).toString('base64')}`;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits for `ok` to hold (checked every 10 ms), for 5 s at most: a busy runner is slow, never wrong. */
async function until(ok: () => boolean): Promise<void> {
  for (let waited = 0; !ok() && waited < 5000; waited += 10) await wait(10);
}
/** The buffers lent once the server has stopped (nothing read, the socket full): unchanged for 200 ms. */
async function lentOnceStalled(before: number): Promise<number> {
  await until(() => bodies.lent > before);
  let last = bodies.lent;
  for (let still = 0, waited = 0; still < 200 && waited < 5000; waited += 20) {
    await wait(20);
    still = bodies.lent === last ? still + 20 : 0;
    last = bodies.lent;
  }
  return last - before;
}

/** A page of 1,000 calls (about 1 MB, a buffer of 2 MB): more than a paused reader's socket holds. */
const bigPage = (page: number, sort = '') => `${callsPath(a.sid)}?PageSize=1000&Page=${page}${sort}`;

async function withServer(run: (port: number) => Promise<void>): Promise<void> {
  const server = http.createServer(app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await run((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

/**
 * Sends `paths` down one connection at once (pipelined) and reads nothing until `whilePaused` has
 * run: the first answers fill the socket's buffers, and the rest wait in the server, their bodies
 * lent. Then every answer's body, in order.
 */
async function pipelined(port: number, paths: string[], whilePaused: () => Promise<void>): Promise<Buffer[]> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.pause();
  socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`).join(''));
  await whilePaused();
  const answers: Buffer[] = [];
  let data = Buffer.alloc(0);
  socket.resume();
  for await (const chunk of socket) {
    data = Buffer.concat([data, chunk as Buffer]);
    for (;;) {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) break;
      const length = Number(/content-length: (\d+)/i.exec(data.subarray(0, end).toString())?.[1]);
      if (data.length < end + 4 + length) break;
      answers.push(data.subarray(end + 4, end + 4 + length));
      data = data.subarray(end + 4 + length);
    }
    if (answers.length === paths.length) break;
  }
  socket.destroy();
  return answers;
}

async function readAll(res: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function get(port: number, path: string): Promise<Buffer> {
  const req = http.get({ port, host: '127.0.0.1', path, headers: { authorization: auth } });
  return readAll(await new Promise<http.IncomingMessage>((r) => req.on('response', r)));
}

describe('page bodies from the pool', () => {
  test('a body still being written is not reused: a reader that waits gets its own pages whole', async () => {
    await withServer(async (port) => {
      const lentBefore = bodies.lent;
      const paths = [...[0, 1, 2, 3, 4].map((page) => bigPage(page, '&SortBy=From:asc')), bigPage(0, '&SortBy=To:asc')];
      paths.push(bigPage(1, '&SortBy=To:asc'), bigPage(2, '&SortBy=To:asc'));
      let lentWhilePaused = 0;
      let others: Buffer[] = [];
      const answers = await pipelined(port, paths, async () => {
        lentWhilePaused = await lentOnceStalled(lentBefore);
        // Pages of the same size, built meanwhile, take other buffers (or those given back).
        others = [await get(port, bigPage(0)), await get(port, bigPage(1)), await get(port, bigPage(2))];
      });
      // 8 MB asked for and nothing read: some of it waits in the server, lent.
      expect(lentWhilePaused).toBeGreaterThan(0);
      await until(() => bodies.lent === lentBefore);
      expect(bodies.lent).toBe(lentBefore);
      // The same pages again: each answer was its own page, byte for byte.
      for (const [k, body] of answers.entries()) expect(body.equals(await get(port, paths[k] as string))).toBe(true);
      for (const [k, body] of others.entries()) expect(body.equals(await get(port, bigPage(k)))).toBe(true);
      expect(JSON.parse((answers[7] as Buffer).toString()).calls).toHaveLength(1000);
    });
  });

  test('a client that leaves mid-answer: what the socket was given comes back once it lets go, and later pages are whole', async () => {
    await withServer(async (port) => {
      const lentBefore = bodies.lent;
      const paths = [0, 1, 2, 3, 4].map((page) => bigPage(page, '&SortBy=Status:desc'));
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      socket.pause();
      socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`).join(''));
      const lentWhilePaused = await lentOnceStalled(lentBefore);
      expect(lentWhilePaused).toBeGreaterThan(0);
      socket.destroy();
      await until(() => bodies.lent - lentBefore < lentWhilePaused);
      // An answer whose write the socket had taken comes back when the socket calls it back
      // (written or cancelled, it holds it no longer); one never begun is left to the collector.
      expect(bodies.lent - lentBefore).toBeLessThan(lentWhilePaused);
      const again = await Promise.all(paths.map((p) => get(port, p)));
      for (const [k, body] of again.entries()) expect(body.equals(await get(port, paths[k] as string))).toBe(true);
    });
  });

  test("the journal keeps a copy of a built page's head, not the buffer the next page reuses", async () => {
    const path = `${callsPath(a.sid)}?PageSize=50&Page=7&SortBy=To:desc`;
    const first = await authGet(app, path, a.token);
    const id = (await request(app).get('/__admin/requests?limit=1')).body.requests[0].id as number;
    // Pages of the same size class, each built in the buffer the one before gave back.
    for (let page = 8; page < 20; page++) await authGet(app, `${callsPath(a.sid)}?PageSize=50&Page=${page}`, a.token);
    const detail = (await request(app).get(`/__admin/requests/${id}`)).body;
    expect(detail.response_body).toBe(first.text.slice(0, BODY_BYTES));
    expect(detail.response_body_truncated).toBe(true);
  });
});
