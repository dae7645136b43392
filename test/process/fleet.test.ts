import { request } from 'node:http';
import { messages } from '../../src/errors';
import { type Spawned, startCli } from '../support/process';
import { type RedisServer, redisServerPath, startRedis } from '../support/redis';

/** One public URL for every replica: file_uri (and so the state hash) must not name a replica's port. */
const PUBLIC = ['--public-url', 'http://fleet.test', '--log-level', 'silent'];
const MAIN = 'ACd8dd7d80798ecf306df57fed76428467';
const MAIN_TOKEN = 'cdc0712299ed1a7f52b28c4e3f03f4bd';

interface Answer {
  status: number;
  version: number | null;
  text: string;
  json: unknown;
}

/**
 * One request on a connection of its own (no keep-alive): with --workers, node:cluster hands
 * each new connection to the next worker, so consecutive requests meet different workers.
 */
function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      `${base}${path}`,
      {
        method,
        agent: false,
        headers: { ...(payload === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => {
          const v = res.headers['x-callrec-version'];
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, version: v === undefined ? null : Number(v), text, json });
        });
      },
    );
    // A connection the cluster's primary handed to a worker as it was killed may never be
    // answered: it counts as failed (not acknowledged), as a client's own timeout would.
    req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${method} ${path} in 10 s`)));
    req.on('error', reject);
    req.end(payload);
  });
}

interface Write {
  version: number;
  method: string;
  path: string;
  body?: unknown;
}

/**
 * One client's writes, of every kind the log carries (inserts, deletes, sandboxes and their
 * clocks, the world's clock, faults), some of them refused (a delete of what another client
 * deleted first): a refused write is ordered and applied (as nothing) like any other.
 */
async function client(c: number, n: number, base: (i: number) => string): Promise<Write[]> {
  const done: Write[] = [];
  let sandbox: string | null = null;
  let lastCall: string | null = null;
  for (let i = 0; i < n; i++) {
    const op = (i * 7 + c) % 8;
    let method = 'POST';
    let path = `/__admin/accounts/${MAIN}/calls`;
    let body: unknown = [{}];
    if (op === 2) {
      path = '/__admin/sandboxes';
      body = { from: MAIN, name: `client ${c} write ${i}` };
    } else if (op === 3) {
      path = sandbox === null ? '/__admin/clock' : `/__admin/sandboxes/${sandbox}/clock`;
      body = { advance: 60 };
    } else if (op === 4) {
      path = '/__admin/faults';
      body = { path: `/nowhere/${c}/${i}`, status: 503 };
    } else if (op === 5 && lastCall !== null) {
      method = 'DELETE';
      path = `/__admin/accounts/${MAIN}/calls/${lastCall}`;
      body = undefined;
    } else if (op === 6 && sandbox !== null) {
      method = 'DELETE';
      path = `/__admin/sandboxes/${sandbox}`;
      body = undefined;
    } else if (op === 7) {
      path = `/__admin/accounts/${sandbox ?? MAIN}/calls`;
      body = [{}, {}];
    }
    const a = await send(base(i), method, path, body);
    if (a.status === 201 && op === 2) sandbox = (a.json as { sid: string }).sid;
    if (a.status === 201 && Array.isArray(a.json) && path.endsWith(`${MAIN}/calls`)) {
      lastCall = (a.json[0] as { sid: string }).sid;
    }
    if (method === 'DELETE' && op === 6) sandbox = null;
    expect(a.status).toBeLessThan(500);
    expect(a.version).not.toBeNull();
    done.push({ version: a.version as number, method, path, ...(body === undefined ? {} : { body }) });
  }
  return done;
}

/** The writes of several clients at once, in the order the log gave them (their versions). */
async function mixedWrites(clients: number, each: number, base: (c: number, i: number) => string) {
  const all = (await Promise.all([...Array(clients).keys()].map((c) => client(c, each, (i) => base(c, i))))).flat();
  return all.sort((a, b) => a.version - b.version);
}

/** A replica's state hash once it has applied `version`, and which replica answered. */
async function hashAt(base: string, version: number): Promise<{ hash: string; replica: string }> {
  const headers = { 'X-Callrec-Version': String(version) };
  const [h, health] = await Promise.all([
    send(base, 'GET', '/__admin/state/hash', undefined, headers),
    send(base, 'GET', '/__admin/health', undefined, headers),
  ]);
  expect(h.status).toBe(200);
  return { hash: (h.json as { hash: string }).hash, replica: (health.json as { replica: string }).replica };
}

/**
 * Hashes from fresh connections until `replicas` different processes have answered (node:cluster
 * hands a connection to a free worker, so a busy machine may send several in a row to one).
 */
async function hashesFrom(base: string, version: number, replicas: number) {
  const seen: { hash: string; replica: string }[] = [];
  for (let i = 0; i < 60 && new Set(seen.map((s) => s.replica)).size < replicas; i++) {
    seen.push(await hashAt(base, version));
  }
  return seen;
}

/** The same writes, one at a time in log order, to one plain process: what the fleet must equal. */
async function singleProcessHash(writes: readonly Write[]): Promise<string> {
  const one = await startCli(PUBLIC);
  try {
    for (const w of writes) {
      const a = await send(one.url, w.method, w.path, w.body);
      expect(a.version).toBe(w.version);
    }
    return (await hashAt(one.url, writes.length)).hash;
  } finally {
    await one.stop();
  }
}

const ALL_KINDS = (writes: readonly Write[]) => new Set(writes.map((w) => `${w.method} ${w.path.split('/')[2]}`));

describe('--workers N: one write log ordered by the primary', () => {
  let fleet: Spawned;
  beforeAll(async () => {
    fleet = await startCli(['--workers', '2', ...PUBLIC]);
  });
  afterAll(() => fleet.stop());

  test('the banner says how many workers share the port', () => {
    expect(fleet.stdout()).toMatch(/Workers: 2 processes share the port/);
  });

  test('after 1,000 mixed writes from 4 clients every worker has the state one process has after the same writes', async () => {
    const writes = await mixedWrites(4, 250, () => fleet.url);
    // Every write has its own version, none skipped: the log is one sequence.
    expect(writes.map((w) => w.version)).toEqual([...Array(1000).keys()].map((i) => i + 1));
    expect(ALL_KINDS(writes).size).toBeGreaterThanOrEqual(4);
    const seen = await hashesFrom(fleet.url, 1000, 2);
    expect(new Set(seen.map((s) => s.replica)).size).toBe(2);
    expect(new Set(seen.map((s) => s.hash)).size).toBe(1);
    expect(seen[0]?.hash).toBe(await singleProcessHash(writes));
  });

  test('a worker killed under load is started again and replays the log: no acknowledged write is lost', async () => {
    const health = (await send(fleet.url, 'GET', '/__admin/health')).json as { replica: string };
    const victim = Number(health.replica.split(':').pop());
    const acknowledged: string[] = [];
    let last = 0;
    const load = async () => {
      for (let i = 0; i < 150; i++) {
        const a = await send(fleet.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]).catch(() => null);
        // A request the killed worker held gets no answer: not acknowledged, so nothing is promised.
        if (a?.status === 201) {
          acknowledged.push((a.json as { sid: string }[])[0]?.sid as string);
          last = Math.max(last, a.version as number);
        }
      }
    };
    const running = Promise.all([load(), load()]);
    await new Promise((r) => setTimeout(r, 100));
    process.kill(victim, 'SIGKILL');
    await running;
    await new Promise((r) => setTimeout(r, 300));
    expect(fleet.stderr()).toMatch(/exited \(SIGKILL\); starting another/);
    const seen = await hashesFrom(fleet.url, last, 2);
    expect(new Set(seen.map((s) => s.replica)).size).toBe(2);
    expect(seen.some((s) => s.replica === health.replica)).toBe(false);
    expect(new Set(seen.map((s) => s.hash)).size).toBe(1);
    expect(acknowledged.length).toBeGreaterThan(250);
    for (let i = 0; i < 4; i++) {
      const state = (await send(fleet.url, 'GET', '/__admin/state', undefined, { 'X-Callrec-Version': String(last) }))
        .text;
      for (const sid of acknowledged) expect(state).toContain(sid);
    }
  }, 60_000);
});

const redisServer = redisServerPath();
const withRedis = redisServer === null ? describe.skip : describe;
if (redisServer === null) {
  // Said, not silent: .ci/run installs Debian's redis-server; elsewhere `apt-get install redis-server`.
  console.warn('SKIPPED: the --redis tests need redis-server on PATH (Debian: apt-get install redis-server)');
}

withRedis('--redis: one write log in a Redis stream, shared by replicas', () => {
  let redis: RedisServer;
  let a: Spawned;
  let b: Spawned;
  beforeAll(async () => {
    redis = await startRedis(redisServer as string);
    a = await startCli(['--redis', redis.url, ...PUBLIC]);
    // The second replica is itself two workers, each reading the stream.
    b = await startCli(['--redis', redis.url, '--workers', '2', ...PUBLIC]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  test('after 1,000 mixed writes sent to both replicas, each agrees with one process given the same writes', async () => {
    const before = ((await send(a.url, 'GET', '/__admin/health')).json as { log: { version: number } }).log.version;
    expect(before).toBe(0);
    const writes = await mixedWrites(4, 250, (c, i) => ((c + i) % 2 === 0 ? a.url : b.url));
    expect(writes.map((w) => w.version)).toEqual([...Array(1000).keys()].map((i) => i + 1));
    const seen = [await hashAt(a.url, 1000), ...(await hashesFrom(b.url, 1000, 2))];
    expect(new Set(seen.map((s) => s.replica)).size).toBe(3);
    expect(new Set(seen.map((s) => s.hash)).size).toBe(1);
    expect(seen[0]?.hash).toBe(await singleProcessHash(writes));
  });

  test('read-your-write: a write on one replica, then a read on the other carrying its version, always sees it', async () => {
    for (let i = 0; i < 100; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const w = await send(writer.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
      expect(w.status).toBe(201);
      const sid = (w.json as { sid: string }[])[0]?.sid;
      const r = await send(reader.url, 'GET', `/call/2012-04-24/Accounts/${MAIN}/Calls/${sid}.json`, undefined, {
        Authorization: `Basic ${Buffer.from(`${MAIN_TOKEN}:`).toString('base64')}`,
        'X-Callrec-Version': String(w.version),
      });
      expect(r.status).toBe(200);
      expect((r.json as { sid: string }).sid).toBe(sid);
    }
  });

  test('a version no replica has reached is a 503 after the wait; a malformed one a 400', async () => {
    const far = await send(a.url, 'GET', '/__admin/health', undefined, { 'X-Callrec-Version': 'soon' });
    expect(far.status).toBe(400);
    expect((far.json as { message: string }).message).toMatch(/^X-Callrec-Version: must be an integer/);
    const head = ((await send(a.url, 'GET', '/__admin/health')).json as { log: { version: number } }).log.version;
    const ahead = await send(b.url, 'GET', '/__admin/health', undefined, { 'X-Callrec-Version': String(head + 1000) });
    expect(ahead.status).toBe(503);
    expect((ahead.json as { message: string }).message).toBe(messages.versionNotReached(head + 1000, head, 5000));
  });

  test('a replica killed mid-load and started again catches up; no acknowledged write is lost', async () => {
    const acknowledged: string[] = [];
    let last = 0;
    const load = async () => {
      for (let i = 0; i < 200; i++) {
        const w = await send(b.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
        expect(w.status).toBe(201);
        acknowledged.push((w.json as { sid: string }[])[0]?.sid as string);
        last = Math.max(last, w.version as number);
      }
    };
    const running = load();
    await new Promise((r) => setTimeout(r, 100));
    await a.stop('SIGKILL');
    await running;
    a = await startCli(['--redis', redis.url, ...PUBLIC]);
    // It answers only once caught up: its first answer already has every write.
    const health = (await send(a.url, 'GET', '/__admin/health')).json as { log: { version: number } };
    expect(health.log.version).toBeGreaterThanOrEqual(last);
    const state = (await send(a.url, 'GET', '/__admin/state')).text;
    for (const sid of acknowledged) expect(state).toContain(sid);
    const [x, y] = await Promise.all([hashAt(a.url, last), hashAt(b.url, last)]);
    expect(y.hash).toBe(x.hash);
  });

  test('Redis stopped: reads go on, writes are 503 naming Redis; once it is back writes work and replicas agree', async () => {
    const list = `/call/2012-04-24/Accounts/${MAIN}/Calls.json?PageSize=5`;
    const auth = { Authorization: `Basic ${Buffer.from(`${MAIN_TOKEN}:`).toString('base64')}` };
    const before = await send(a.url, 'GET', list, undefined, auth);
    await redis.stop();
    const read = await send(a.url, 'GET', list, undefined, auth);
    expect(read.status).toBe(200);
    expect(read.text).toBe(before.text);
    const refused = await send(b.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
    expect(refused.status).toBe(503);
    const message = (refused.json as { message: string }).message;
    expect(message).toContain(messages.logUnavailable(`Redis at ${redis.url}`, '').split('(')[0]);
    expect(message).toContain(`Redis at ${redis.url}`);
    const health = (await send(a.url, 'GET', '/__admin/health')).json as { log: { up: boolean } };
    expect(health.log.up).toBe(false);
    // Nothing half-applied: the refused write is nowhere.
    const hashes = await Promise.all([
      send(a.url, 'GET', '/__admin/state/hash'),
      send(b.url, 'GET', '/__admin/state/hash'),
    ]);
    expect(hashes[1]?.text).toBe(hashes[0]?.text);

    await redis.start();
    let w: Answer | null = null;
    for (let i = 0; i < 50 && w?.status !== 201; i++) {
      await new Promise((r) => setTimeout(r, 100));
      w = await send(a.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
    }
    expect(w?.status).toBe(201);
    const [x, y] = await Promise.all([hashAt(a.url, w?.version as number), hashAt(b.url, w?.version as number)]);
    expect(y.hash).toBe(x.hash);
  });
});
