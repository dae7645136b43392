import { Agent, request } from 'node:http';
import Redis from 'ioredis';
import { messages } from '../../src/errors';
import { runCli, type Spawned, startCli } from '../support/process';
import { type RedisServer, redisServerPath, startRedis } from '../support/redis';

const PUBLIC = ['--public-url', 'http://fleet.test', '--log-level', 'silent'];
const MAIN = 'ACd8dd7d80798ecf306df57fed76428467';
const MAIN_TOKEN = 'cdc0712299ed1a7f52b28c4e3f03f4bd';
const AUTH = { Authorization: `Basic ${Buffer.from(`${MAIN_TOKEN}:`).toString('base64')}` };

interface Answer {
  status: number;
  json: { message?: string } & Record<string, unknown>;
  ms: number;
}

async function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const started = performance.now();
  const isForm = typeof body === 'string';
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined
        ? {}
        : { 'content-type': isForm ? 'application/x-www-form-urlencoded' : 'application/json' }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: isForm ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(40_000),
  });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text || 'null'), ms: performance.now() - started } as Answer;
}

const alive = (s: Spawned) => s.proc.exitCode === null && s.proc.signalCode === null;

const redisServer = redisServerPath();
const withRedis = redisServer === null ? describe.skip : describe;

withRedis('--redis replicas under writes they refuse, bad log entries and a paused Redis', () => {
  let redis: RedisServer;
  let a: Spawned;
  let b: Spawned;
  let r: Redis;
  beforeAll(async () => {
    redis = await startRedis(redisServer as string);
    r = new Redis(redis.url, { lazyConnect: false });
    [a, b] = await Promise.all([
      startCli(['--redis', redis.url, ...PUBLIC]),
      startCli(['--redis', redis.url, ...PUBLIC]),
    ]);
  });
  afterAll(async () => {
    r?.disconnect();
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  test('a write its handler refuses is answered with its 4xx, and the replica that took it lives on', async () => {
    for (let i = 0; i < 3; i++) {
      const clock = await send(a.url, 'POST', '/__admin/clock', { advance: -5 });
      expect(clock.status).toBe(400);
      const gone = await send(a.url, 'DELETE', '/__admin/accounts/ACnope');
      expect(gone.status).toBe(404);
      expect(gone.json.message).toBe(messages.noAccount('ACnope'));
      // Any holder of an account's token can send this one.
      const create = await send(a.url, 'POST', `/call/2012-04-24/Accounts/${MAIN}/Calls.json`, 'To=%2B15550001', AUTH);
      expect(create.status).toBe(400);
    }
    await new Promise((res) => setTimeout(res, 200));
    expect(alive(a)).toBe(true);
    expect(a.stderr()).not.toMatch(/Unhandled|unhandled/);
    expect((await send(a.url, 'GET', '/__admin/health')).status).toBe(200);
  });

  test('Redis pauses writes past the command timeout: a write answers what became of it, never "not applied" for one applied', async () => {
    const before = (await send(a.url, 'GET', `/__admin/accounts/${MAIN}`)).json as { calls: number };
    await r.call('CLIENT', 'PAUSE', '7000', 'WRITE');
    const w = await send(a.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
    await new Promise((res) => setTimeout(res, 500));
    const after = (await send(b.url, 'GET', `/__admin/accounts/${MAIN}`, undefined, {})).json as { calls: number };
    // It waited until Redis said what became of it (applied), rather than a false "send it again".
    expect(w.status).toBe(201);
    expect(after.calls - before.calls).toBe(1);
    expect(w.ms).toBeGreaterThan(5000);
  }, 60_000);

  describe('an entry no replica can apply', () => {
    test.each([
      ['null', 'null', /it is null, not an object/],
      ['text that is not JSON', '{"kind":"admin",', /its text is not JSON/],
    ])(
      '%s: every replica stops there and says why (health 503, writes 503 at once), and a new replica exits naming it',
      async (_what, text, reason) => {
        // As a hand or another program would add it: the next version, in the stream's own form.
        const v = (await r.incr('callrec:version')) as number;
        await r.xadd('callrec:log', `${v}-1`, 'e', text);
        for (const replica of [a, b]) {
          let health: Answer | null = null;
          for (let i = 0; i < 50 && health?.status !== 503; i++) {
            await new Promise((res) => setTimeout(res, 100));
            health = await send(replica.url, 'GET', '/__admin/health');
          }
          const seen = health as Answer;
          expect(seen.status).toBe(503);
          expect(seen.json['status']).toBe('failing');
          expect(String((seen.json['log'] as { halted: string }).halted)).toMatch(reason);
          expect(alive(replica)).toBe(true);
          expect(replica.stderr()).toMatch(new RegExp(`Entry ${v} of the write log`));
          const w = await send(replica.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
          expect(w.status).toBe(503);
          expect(w.ms).toBeLessThan(3000);
          expect(w.json.message).toMatch(reason);
        }
        const late = await runCli(['--port', '0', '--redis', redis.url, ...PUBLIC]);
        expect(late.code).toBe(2);
        expect(late.stderr).toMatch(reason);
        expect(late.stderr).toContain(`Entry ${v} of the write log`);
        expect(late.stderr).not.toMatch(/cannot listen/);
        // Start again on a fresh log for the next case.
        await Promise.all([a.stop(), b.stop()]);
        await r.flushall();
        [a, b] = await Promise.all([
          startCli(['--redis', redis.url, ...PUBLIC]),
          startCli(['--redis', redis.url, ...PUBLIC]),
        ]);
      },
      60_000,
    );
  });

  test('--callback-hosts is an option every replica must share: a replica allowing other hosts is refused at start', async () => {
    const other = await runCli([
      '--port',
      '0',
      '--redis',
      redis.url,
      '--callback-hosts',
      'hooks.example.com',
      ...PUBLIC,
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/callbackHosts/);
  });
});

/** A batch of almost 1 MB (the admin body limit) for an account that does not exist: refused (404) by its handler, in every replica. */
const REFUSED_BODY = JSON.stringify(
  Array.from({ length: 17_000 }, (_, i) => ({ from: `+1555${String(i).padStart(40, '0')}` })),
);

describe('--workers: a refused write leaves nothing of its body in the log', () => {
  test('150 refused writes of almost 1 MB in a primary of 96 MB of heap: it keeps nothing of them, and a worker started after agrees', async () => {
    // What the primary kept of 150 bodies would not fit: it would end on an out-of-memory error.
    const fleet = await startCli(['--workers', '2', ...PUBLIC], { NODE_OPTIONS: '--max-old-space-size=96' });
    try {
      for (let i = 0; i < 150; i += 6) {
        const answers = await Promise.all(
          Array.from({ length: 6 }, () =>
            fetch(`${fleet.url}/__admin/accounts/ACnope/calls`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: REFUSED_BODY,
            }).then((r) => r.status),
          ),
        );
        expect(new Set(answers)).toEqual(new Set([404]));
      }
      const ok = await send(fleet.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
      expect(ok.status).toBe(201);
      expect(fleet.proc.exitCode).toBeNull();
      expect(fleet.stderr()).not.toMatch(/heap out of memory|exited/);
      // A worker started now replays the log (refusals as nothing) to the same state.
      const health = (await send(fleet.url, 'GET', '/__admin/health')).json as { replica: string };
      process.kill(Number(health.replica.split(':').pop()), 'SIGKILL');
      const hashes = new Map<string, string>();
      for (let i = 0; i < 40 && hashes.size < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const h = await fetch(`${fleet.url}/__admin/state/hash`, { headers: { 'X-Callrec-Version': '151' } }).catch(
          () => null,
        );
        const who = await fetch(`${fleet.url}/__admin/health`).catch(() => null);
        if (h?.status === 200 && who?.status === 200)
          hashes.set(((await who.json()) as { replica: string }).replica, ((await h.json()) as { hash: string }).hash);
      }
      expect(new Set(hashes.values()).size).toBe(1);
    } finally {
      await fleet.stop();
    }
  }, 120_000);
});

withRedis('--redis: a refused write leaves the stream', () => {
  test('the stream keeps no entry for it, and a replica started after fills its place and agrees', async () => {
    const redis = await startRedis(redisServer as string);
    const r = new Redis(redis.url);
    const a = await startCli(['--redis', redis.url, ...PUBLIC]);
    let late: Spawned | null = null;
    try {
      for (let i = 0; i < 5; i++) {
        const refused = await fetch(`${a.url}/__admin/accounts/ACnope/calls`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: REFUSED_BODY,
        });
        expect(refused.status).toBe(404);
        expect((await send(a.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}])).status).toBe(201);
      }
      await new Promise((res) => setTimeout(res, 200));
      expect(await r.xlen('callrec:log')).toBe(5);
      expect(Number(await r.get('callrec:version'))).toBe(10);
      late = await startCli(['--redis', redis.url, ...PUBLIC]);
      const [x, y] = await Promise.all(
        [a, late].map(
          async (s) => (await send(s.url, 'GET', '/__admin/state/hash', undefined, { 'X-Callrec-Version': '10' })).json,
        ),
      );
      expect(y).toEqual(x);
      expect(((await send(late.url, 'GET', '/__admin/health')).json['log'] as { version: number }).version).toBe(10);
    } finally {
      r.disconnect();
      await Promise.all([a.stop(), late?.stop()]);
      await redis.stop();
    }
  }, 60_000);
});

describe('--workers: a worker killed as connections come', () => {
  test('every connection is answered or reset at once: none is left hanging', async () => {
    const fleet = await startCli(['--workers', '2', ...PUBLIC]);
    try {
      const outcomes: string[] = [];
      /** One request on a connection of its own: its status, a reset, or a hang past 4 s. */
      const one = () =>
        new Promise<void>((resolve) => {
          const req = request(`${fleet.url}/__admin/health`, { agent: false }, (res) => {
            res.resume();
            res.on('end', () => {
              outcomes.push(String(res.statusCode));
              resolve();
            });
          });
          req.setTimeout(4000, () => {
            outcomes.push('hung');
            req.destroy();
          });
          req.on('error', (err: NodeJS.ErrnoException) => {
            if (!req.destroyed || err.code !== undefined) outcomes.push(err.code ?? 'error');
            resolve();
          });
          req.end();
        });
      const load = async () => {
        for (let i = 0; i < 150; i++) await one();
      };
      const health = (await send(fleet.url, 'GET', '/__admin/health')).json as { replica: string };
      const running = Promise.all([load(), load(), load(), load()]);
      await new Promise((r) => setTimeout(r, 150));
      process.kill(Number(health.replica.split(':').pop()), 'SIGKILL');
      await running;
      expect(outcomes.filter((o) => o === 'hung')).toEqual([]);
      expect(outcomes.filter((o) => o === '200').length).toBeGreaterThan(500);
    } finally {
      await fleet.stop();
    }
  }, 120_000);
});

/** GETs on one kept-alive connection, made for them alone: a round reaches one worker, whichever accepts it. */
async function onOneConnection(base: string, paths: string[], headers: Record<string, string>) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const answers: { status: number; json: unknown }[] = [];
    for (const path of paths) {
      answers.push(
        await new Promise((resolve, reject) => {
          const req = request(`${base}${path}`, { agent, headers }, (res) => {
            let text = '';
            res.on('data', (d: Buffer) => {
              text += d.toString();
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text || 'null') }));
          });
          req.on('error', reject);
          req.end();
        }),
      );
    }
    return answers;
  } finally {
    agent.destroy();
  }
}

/** A fault whose body is almost 1 MB: an accepted write the log must carry, which leaves the world small once removed. */
const BIG_FAULT = JSON.stringify({ path: '/nowhere', status: 500, body: 'x'.repeat(900_000) });

describe('--workers: the write log is bounded by checkpoints', () => {
  test('150 faults of almost 1 MB made and removed in a primary of 96 MB of heap: it keeps one span past a checkpoint, and a worker started after starts from it and agrees', async () => {
    const fleet = await startCli(['--workers', '2', '--checkpoint-every', '40', ...PUBLIC], {
      NODE_OPTIONS: '--max-old-space-size=96',
    });
    try {
      for (let i = 0; i < 150; i++) {
        const made = await fetch(`${fleet.url}/__admin/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: BIG_FAULT,
        });
        expect(made.status).toBe(201);
        const { id } = (await made.json()) as { id: string };
        expect((await send(fleet.url, 'DELETE', `/__admin/faults/${id}`)).status).toBe(200);
      }
      const kept = await send(fleet.url, 'POST', '/__admin/faults', { path: '/kept', status: 503 });
      expect(kept.status).toBe(201);
      expect(fleet.proc.exitCode).toBeNull();
      expect(fleet.stderr()).not.toMatch(/heap out of memory|exited/);
      const health = (await send(fleet.url, 'GET', '/__admin/health')).json as { replica: string };
      process.kill(Number(health.replica.split(':').pop()), 'SIGKILL');
      const seen = new Map<string, { hash: string; faults: unknown; from: number }>();
      for (let i = 0; i < 100 && seen.size < 2; i++) {
        await new Promise((r) => setTimeout(r, 100));
        // One connection for the three questions, a new one each round: each round may reach the other worker.
        const one = await onOneConnection(fleet.url, ['/__admin/state/hash', '/__admin/faults', '/__admin/health'], {
          'X-Callrec-Version': '301',
        }).catch(() => null);
        if (one === null || one.some((a) => a.status !== 200)) continue;
        const [h, f, w] = one.map((a) => a.json) as [
          { hash: string },
          unknown,
          { replica: string; log: { checkpoint: { started_from: number } } },
        ];
        seen.set(w.replica, { hash: h.hash, faults: f, from: w.log.checkpoint.started_from });
      }
      const [one, two] = [...seen.values()] as { hash: string; faults: unknown; from: number }[];
      expect(two).toEqual({ ...one, from: expect.any(Number) });
      // The new worker started from a checkpoint (the fault bodies weigh 16 MB a few times over).
      expect(Math.max(one?.from ?? 0, two?.from ?? 0)).toBeGreaterThanOrEqual(250);
      expect(one?.faults).toEqual({ faults: [expect.objectContaining({ id: 'fault-151', path: '/kept' })] });
    } finally {
      await fleet.stop();
    }
  }, 120_000);
});

withRedis('--redis: the stream is bounded by checkpoints', () => {
  test('the stream and its sets keep the span before the newest checkpoint; a replica started after starts from it and agrees', async () => {
    const redis = await startRedis(redisServer as string);
    const r = new Redis(redis.url);
    const args = ['--redis', redis.url, '--checkpoint-every', '10', ...PUBLIC];
    const [a, b] = await Promise.all([startCli(args), startCli(args)]);
    let late: Spawned | null = null;
    try {
      for (let i = 0; i < 45; i++) {
        const via = i % 2 === 0 ? a : b;
        const step =
          i % 9 === 0
            ? await send(via.url, 'POST', '/__admin/sandboxes', { from: MAIN })
            : await send(via.url, 'POST', `/__admin/accounts/${MAIN}/calls`, [{}]);
        expect(step.status).toBe(201);
      }
      await new Promise((res) => setTimeout(res, 300));
      // Checkpoints at 10, 20, 30 and 40; the stream keeps what came after 30.
      expect(await r.hget('callrec:checkpoint', 'version')).toBe('40');
      expect(await r.xlen('callrec:log')).toBe(15);
      expect(await r.zcard('callrec:ids')).toBe(15);
      late = await startCli(args);
      const at = { 'X-Callrec-Version': '45' };
      const views = await Promise.all(
        [a, b, late].map(async (s) => ({
          hash: (await send(s.url, 'GET', '/__admin/state/hash', undefined, at)).json,
          sandboxes: (await send(s.url, 'GET', '/__admin/sandboxes', undefined, at)).json,
        })),
      );
      expect(views[2]).toEqual(views[0]);
      expect(views[1]).toEqual(views[0]);
      const log = (await send(late.url, 'GET', '/__admin/health')).json['log'] as Record<string, unknown>;
      expect(log).toMatchObject({ version: 45, checkpoint: { started_from: 40, made: 0 } });
      // The next fork names the same sandbox on a replica that started from the checkpoint.
      const next = await send(late.url, 'POST', '/__admin/sandboxes', { from: MAIN });
      const listed = await send(a.url, 'GET', '/__admin/sandboxes', undefined, { 'X-Callrec-Version': '46' });
      expect((listed.json['sandboxes'] as { sid: string }[]).map((s) => s.sid)).toContain(next.json['sid']);
    } finally {
      r.disconnect();
      await Promise.all([a.stop(), b.stop(), late?.stop()]);
      await redis.stop();
    }
  }, 60_000);
});
