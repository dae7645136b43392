import { request } from 'node:http';
import { messages } from '../../src/errors';
import { type Spawned, startCli } from '../support/process';
import { type RedisServer, redisServerPath, startRedis } from '../support/redis';

/** One public URL for every replica: file_uri (and so the state hash) must not name a replica's port. */
const PUBLIC = ['--public-url', 'http://fleet.test', '--log-level', 'silent'];
const MAIN = 'ACd8dd7d80798ecf306df57fed76428467';
const MAIN_TOKEN = 'cdc0712299ed1a7f52b28c4e3f03f4bd';
const AUTH = { Authorization: `Basic ${Buffer.from(`${MAIN_TOKEN}:`).toString('base64')}` };

/** `GET /__admin/requests?fleet=true`, as far as these tests read it. */
interface FleetJournal {
  requests: { replica: string; path: string; status: number; fault: { id: string } | null }[];
  matched: number;
  replicas: { replica: string }[];
}

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

  test("a fault's times are the fleet's: `times: 3` faults 3 requests of the fleet, and the fleet's journal shows them", async () => {
    const path = `/call/2012-04-24/Accounts/${MAIN}/Recordings.json`;
    const made = await send(fleet.url, 'POST', '/__admin/faults', { path, status: 502, times: 3 });
    expect(made.status).toBe(201);
    const id = (made.json as { id: string }).id;
    const statuses: number[] = [];
    let journal: FleetJournal = { requests: [], matched: 0, replicas: [] };
    // Until both workers have taken some (node:cluster may give one several in a row).
    for (let i = 0; i < 15 && (i < 4 || new Set(journal.requests.map((r) => r.replica)).size < 2); i++) {
      // Three requests a round, then the journal: an even number would meet the same worker each time.
      for (let k = 0; k < 3; k++) statuses.push((await send(fleet.url, 'GET', path, undefined, AUTH)).status);
      journal = (await send(fleet.url, 'GET', `/__admin/requests?fleet=true&path=${encodeURIComponent(path)}`))
        .json as FleetJournal;
    }
    expect(new Set(journal.requests.map((r) => r.replica)).size).toBe(2);
    expect(statuses.filter((s) => s === 502)).toHaveLength(3);
    expect(statuses.slice(0, 3)).toEqual([502, 502, 502]);
    expect(journal.matched).toBe(statuses.length);
    expect(journal.requests.filter((r) => r.fault?.id === id)).toHaveLength(3);
    expect(journal.replicas.map((r) => r.replica).sort()).toEqual(
      [...new Set(journal.requests.map((r) => r.replica))].sort(),
    );
    // Either worker shows the fleet's counts.
    for (let i = 0; i < 4; i++) {
      const fault = (await send(fleet.url, 'GET', `/__admin/faults/${id}`)).json;
      expect(fault).toMatchObject({ matched: 3, applied: 3 });
    }
    expect((await send(fleet.url, 'DELETE', `/__admin/faults/${id}`)).status).toBe(200);
  });

  test('a scrape of /metrics answers for every worker: the same sums whichever worker takes it', async () => {
    const series = (text: string, name: string) =>
      Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    const calls = (text: string) =>
      Number(/^callrec_http_requests_total\{route="calls",method="GET",status="200"\} (\d+)$/m.exec(text)?.[1] ?? 0);
    const before = calls((await send(fleet.url, 'GET', '/metrics')).text);
    for (let i = 0; i < 9; i++) {
      expect(
        (await send(fleet.url, 'GET', `/call/2012-04-24/Accounts/${MAIN}/Calls.json?PageSize=1`, undefined, AUTH))
          .status,
      ).toBe(200);
    }
    const scrapes = await Promise.all([1, 2, 3, 4].map(() => send(fleet.url, 'GET', '/metrics')));
    for (const s of scrapes) {
      expect(s.status).toBe(200);
      expect(calls(s.text)).toBe(before + 9);
      // A gauge of the one world is the world's, not the sum of its copies.
      expect(series(s.text, 'callrec_accounts')).toBe(
        ((await send(fleet.url, 'GET', '/__admin/accounts')).json as { accounts: unknown[] }).accounts.length,
      );
      expect(series(s.text, 'callrec_log_up')).toBe(1);
    }
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

/** Whether a list page is the last (production writes its next link as the string "null"). */
const lastPage = (page: Answer) => (page.json as { next_page_uri: string }).next_page_uri === 'null';

/** What a walk report says that does not depend on where its requests were journaled. */
const walkFacts = (report: Record<string, unknown>) => {
  const { requests: _requests, replicas: _replicas, ...rest } = report;
  return rest;
};

withRedis('--redis: a client whose pages go round robin to the replicas, and fault counters the fleet shares', () => {
  let redis: RedisServer;
  let a: Spawned;
  let b: Spawned;
  let one: Spawned;
  beforeAll(async () => {
    redis = await startRedis(redisServer as string);
    [a, b, one] = await Promise.all([
      startCli(['--redis', redis.url, ...PUBLIC]),
      startCli(['--redis', redis.url, '--workers', '2', ...PUBLIC]),
      startCli(PUBLIC),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), one?.stop()]);
    await redis?.stop();
  });

  test('a walk with each page on another replica, while writes go on, is served what one process serves; the fleet walks report agrees', async () => {
    const replicas = [a.url, b.url];
    const list = `/call/2012-04-24/Accounts/${MAIN}/Calls.json`;
    let done = false;
    let step = 0;
    const served: string[] = [];
    while (!done) {
      const uri = `${list}?Page=${step}&PageSize=40`;
      // A write between every two pages, on another replica than the page: a new call (which
      // slides the offset pages), and every third step a delete of a call already served.
      const write: { method: string; path: string; body?: unknown } =
        step % 3 === 2
          ? { method: 'DELETE', path: `/__admin/accounts/${MAIN}/calls/${served[step]}` }
          : { method: 'POST', path: `/__admin/accounts/${MAIN}/calls`, body: [{}] };
      const w = await send(replicas[(step + 1) % 2] as string, write.method, write.path, write.body);
      const alone = await send(one.url, write.method, write.path, write.body);
      expect(w.status).toBeLessThan(300);
      expect(alone.text).toBe(w.text);
      const page = await send(replicas[step % 2] as string, 'GET', uri, undefined, {
        ...AUTH,
        'X-Callrec-Version': String(w.version),
      });
      const same = await send(one.url, 'GET', uri, undefined, AUTH);
      expect(page.status).toBe(200);
      expect(page.text).toBe(same.text);
      for (const c of (page.json as { calls: { sid: string }[] }).calls) served.push(c.sid);
      done = lastPage(page);
      step++;
    }
    expect(step).toBeGreaterThan(8);

    const fleetReport = (await send(a.url, 'GET', `/__admin/walks?fleet=true&account=${MAIN}`)).json as {
      walks: Record<string, unknown>[];
    };
    const alone = (await send(one.url, 'GET', `/__admin/walks?account=${MAIN}`)).json as {
      walks: Record<string, unknown>[];
    };
    expect(fleetReport.walks).toHaveLength(1);
    const walk = fleetReport.walks[0] as Record<string, unknown>;
    expect(walk).toMatchObject({ pages: step, complete: true });
    // The offset pages did what they do on a list that changes: the report says so, alike.
    expect((walk['duplicates_count'] as number) + (walk['missed_count'] as number)).toBeGreaterThan(0);
    expect(walkFacts(walk)).toEqual(walkFacts(alone.walks[0] as Record<string, unknown>));
    // Its requests are in two replicas' journals (three processes: b is two workers).
    expect(new Set(walk['replicas'] as string[]).size).toBeGreaterThanOrEqual(2);
    // A replica's own report sees only its share of the pages: no walk of it is whole.
    const own = (await send(a.url, 'GET', `/__admin/walks?account=${MAIN}`)).json as { walks: { pages: number }[] };
    expect(own.walks.every((x) => x.pages < step)).toBe(true);
    // The fleet's journal has every page, newest first, each naming its replica.
    const journal = (
      await send(
        b.url,
        'GET',
        `/__admin/requests?fleet=true&path=${encodeURIComponent(`/call/2012-04-24/Accounts/${MAIN}/Calls.json`)}`,
      )
    ).json as FleetJournal;
    expect(journal.matched).toBe(step);
    expect(journal.requests).toHaveLength(step);
    expect(journal.replicas.length).toBe(3);
  });

  test("a rate limit is the fleet's: `limit: 4` over both replicas lets 4 through in all, and either shows the fleet's counts", async () => {
    const path = `/call/2012-04-24/Accounts/${MAIN}/Recordings.json`;
    const made = await send(a.url, 'POST', '/__admin/faults', { path, rate_limit: { limit: 4, window_s: 60 } });
    const id = (made.json as { id: string }).id;
    const answers: Answer[] = [];
    for (let i = 0; i < 10; i++) {
      answers.push(
        await send(i % 2 === 0 ? a.url : b.url, 'GET', path, undefined, {
          ...AUTH,
          'X-Callrec-Version': String(made.version),
        }),
      );
    }
    expect(answers.map((x) => x.status)).toEqual([200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
    expect((answers[4] as Answer).json).toEqual({ message: messages.rateLimited(4, 60) });
    for (const r of [a, b, b]) {
      expect((await send(r.url, 'GET', `/__admin/faults/${id}`)).json).toMatchObject({ matched: 10, applied: 6 });
    }
  });

  test("a fault's times hold across replicas racing for them: 20 requests at once, `times: 5`, 5 faulted", async () => {
    const path = `/call/2012-04-24/Accounts/${MAIN}/Calls/`;
    const made = await send(b.url, 'POST', '/__admin/faults', { path, status: 500, times: 5 });
    const headers = { ...AUTH, 'X-Callrec-Version': String(made.version) };
    const answers = await Promise.all(
      [...Array(20).keys()].map((i) =>
        send(i % 2 === 0 ? a.url : b.url, 'GET', `${path}CA${'0'.repeat(32)}.json`, undefined, headers),
      ),
    );
    expect(answers.filter((x) => x.status === 500)).toHaveLength(5);
    expect(answers.filter((x) => x.status === 404)).toHaveLength(15);
  });

  test('Redis stopped: a request a fault may touch is a 503 naming Redis (the fault is never skipped); others are answered', async () => {
    const path = `/call/2012-04-24/Accounts/${MAIN}/Notifications.json`;
    const made = await send(a.url, 'POST', '/__admin/faults', { path, status: 500 });
    await redis.stop();
    try {
      const touched = await send(a.url, 'GET', path, undefined, { ...AUTH, 'X-Callrec-Version': String(made.version) });
      expect(touched.status).toBe(503);
      expect((touched.json as { message: string }).message).toContain(`Redis at ${redis.url}`);
      const untouched = await send(
        b.url,
        'GET',
        `/call/2012-04-24/Accounts/${MAIN}/Calls.json?PageSize=1`,
        undefined,
        AUTH,
      );
      expect(untouched.status).toBe(200);
      expect((await send(a.url, 'GET', '/__admin/faults')).status).toBe(503);
    } finally {
      await redis.start();
    }
  });
});

withRedis('--dialect twilio over --redis: two replicas apply the same creates, updates and deletes', () => {
  let redis: RedisServer;
  let a: Spawned;
  let b: Spawned;
  beforeAll(async () => {
    redis = await startRedis(redisServer as string);
    a = await startCli(['--redis', redis.url, '--dialect', 'twilio', ...PUBLIC]);
    b = await startCli(['--redis', redis.url, '--dialect', 'twilio', '--workers', '2', ...PUBLIC]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  /** A form POST or a DELETE of Twilio's, with the main account's credentials. */
  function twilioWrite(base: string, method: string, path: string, form?: Record<string, string>) {
    return new Promise<Answer>((resolve, reject) => {
      const payload = form === undefined ? undefined : new URLSearchParams(form).toString();
      const req = request(
        `${base}${path}`,
        {
          method,
          agent: false,
          headers: {
            Authorization: `Basic ${Buffer.from(`${MAIN}:${MAIN_TOKEN}`).toString('base64')}`,
            ...(payload === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => (text += d));
          res.on('end', () => {
            const v = res.headers['x-callrec-version'];
            resolve({
              status: res.statusCode ?? 0,
              version: v === undefined ? null : Number(v),
              text,
              json: text === '' ? null : JSON.parse(text),
            });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  test('a call created on one replica is fetched, updated and deleted on the other, in Twilio shapes', async () => {
    const calls = `/2010-04-01/Accounts/${MAIN}/Calls.json`;
    const made = await twilioWrite(a.url, 'POST', calls, {
      To: '+15550001111',
      From: '+15126002188',
      Url: 'http://127.0.0.1:1/x',
    });
    expect(made.status).toBe(201);
    const call = made.json as { sid: string; uri: string };
    const seen = { 'X-Callrec-Version': String(made.version) };
    const auth = { Authorization: `Basic ${Buffer.from(`${MAIN}:${MAIN_TOKEN}`).toString('base64')}` };
    const fetched = await send(b.url, 'GET', call.uri, undefined, { ...seen, ...auth });
    expect([fetched.status, (fetched.json as { sid: string }).sid]).toEqual([200, call.sid]);
    const updated = await twilioWrite(b.url, 'POST', call.uri, { Status: 'canceled' });
    expect([updated.status, (updated.json as { status: string }).status]).toEqual([200, 'canceled']);
    const after = await send(a.url, 'GET', call.uri, undefined, {
      'X-Callrec-Version': String(updated.version),
      ...auth,
    });
    expect((after.json as { status: string }).status).toBe('canceled');
    const gone = await twilioWrite(a.url, 'DELETE', call.uri);
    expect(gone.status).toBe(204);
    const missing = await send(b.url, 'GET', call.uri, undefined, {
      'X-Callrec-Version': String(gone.version),
      ...auth,
    });
    expect([missing.status, (missing.json as { code: number }).code]).toEqual([404, 20404]);
    const hashes = await Promise.all(
      [a.url, b.url].map(
        async (u) =>
          (await send(u, 'GET', '/__admin/state/hash', undefined, { 'X-Callrec-Version': String(gone.version) })).json,
      ),
    );
    expect(hashes[0]).toEqual(hashes[1]);
  });
});
