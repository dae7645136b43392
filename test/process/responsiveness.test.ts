import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AdminAccount, adminAccounts, type Spawned, startCli } from '../support/process';

/**
 * Each attack that froze the server once runs here against a real server, while health checks
 * are sent one after another. The server must keep yielding: judged by what holds on a busy
 * runner as well as an idle one, never by a wall-clock limit. The process stays up, every health
 * check answers 200, several answer while the attack runs, and no single one waits for a large
 * share of the attack (a server frozen for the whole build answers one probe, after it all), or
 * more than many times what a probe took just before with no attack. Absolute figures live in
 * `npm run bench` and the soak.
 */
const SHARE = 0.5;
const TIMES_BASELINE = 50;
/** The pause between one health check's answer and the next check. */
const PAUSE_MS = 5;

interface Probed {
  probes: number;
  worst: number;
  attackMs: number;
  statuses: Set<number>;
}

async function probe(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/__admin/health`);
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

/** The slowest of twenty health checks with nothing else running: this run's own yardstick. */
async function baseline(url: string): Promise<number> {
  let worst = 0;
  for (let i = 0; i < 20; i++) worst = Math.max(worst, (await probe(url)).ms);
  return worst;
}

async function probeWhile(url: string, attack: Promise<unknown>): Promise<Probed> {
  const began = performance.now();
  let done = false;
  const finished = attack.finally(() => {
    done = true;
  });
  let probes = 0;
  let worst = 0;
  const statuses = new Set<number>();
  while (!done) {
    const { ms, status } = await probe(url);
    statuses.add(status);
    if (!done) {
      probes++;
      worst = Math.max(worst, ms);
    }
    await new Promise((r) => setTimeout(r, PAUSE_MS));
  }
  const attackMs = performance.now() - began;
  await finished;
  return { probes, worst, attackMs, statuses };
}

/**
 * Takes the baseline, starts the attack, probes until it settles, and checks the rule of this
 * file; resolves with what the attack resolved with. `short`: an attack of a few requests, each
 * of which could freeze the server alone: too few probes to count, and no share of the attack
 * to allow, so the worst probe is held to the baseline ratio alone. `times`: that ratio, where a
 * request of the attack does a tenth of a second of work of its own (the old freezes were tens of
 * seconds).
 */
async function underAttack<T>(em: Spawned, start: () => Promise<T>, short = false, times = TIMES_BASELINE): Promise<T> {
  const base = await baseline(em.url);
  const attack = start();
  expectYielded(em, base, await probeWhile(em.url, attack), short, times);
  return attack;
}

/** POSTs a JSON file with curl (a process of its own, reading fast); resolves with the bytes of the answer. */
function curlPost(url: string, file: string): Promise<number> {
  return new Promise((resolve, reject) =>
    execFile(
      'curl',
      [
        '-sf',
        '-o',
        '/dev/null',
        '-w',
        '%{size_download}',
        '-H',
        'Content-Type: application/json',
        '--data-binary',
        `@${file}`,
        url,
      ],
      (err, out) => (err === null ? resolve(Number(out)) : reject(err)),
    ),
  );
}

/** The rule of this file (see above); the figures are in the failure message. */
function expectYielded(em: Spawned, base: number, p: Probed, short: boolean, times: number): void {
  const figures = `${p.probes} probes, worst ${Math.round(p.worst)} ms, attack ${Math.round(p.attackMs)} ms, baseline ${Math.round(base)} ms`;
  expect({ alive: em.proc.exitCode === null, statuses: [...p.statuses] }).toEqual({ alive: true, statuses: [200] });
  // A server frozen for the attack answers one check, after it all (two, if one slipped in
  // before it froze), and that one waits for most of the attack: the bound below. One that yields
  // answers a check each time a slice of the work ends, so as many as the attack's length leaves
  // room for at the slowest check's pace: at least two, and four once the attack is long. An
  // attack of a tenth of a second on a busy runner has room for two or three only.
  const room = Math.floor(p.attackMs / (PAUSE_MS + p.worst)) - 1;
  const several = Math.min(4, Math.max(2, room));
  expect({ yielded: short || p.probes >= several, figures }).toEqual({ yielded: true, figures });
  const bound = short ? times * base : Math.max(SHARE * p.attackMs, times * base);
  expect({ bounded: p.worst <= bound, figures }).toEqual({
    bounded: true,
    figures,
  });
}

/**
 * A fast reader in a process of its own (curl): read in the test's own process, a big body
 * would hold up the test's health checks on the client side and measure nothing of the server.
 * Resolves with the bytes read.
 */
function curl(url: string, token?: string): Promise<number> {
  const auth = token === undefined ? [] : ['-u', `${token}:`];
  return new Promise((resolve, reject) =>
    execFile('curl', ['-sf', '-o', '/dev/null', '-w', '%{size_download}', ...auth, url], (err, out) =>
      err === null ? resolve(Number(out)) : reject(err),
    ),
  );
}

const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` });
const callsUrl = (url: string, a: AdminAccount, query: string) =>
  `${url}/call/2012-04-24/Accounts/${a.sid}/Calls.json${query}`;
const recordingsUrl = (url: string, a: AdminAccount) => `${url}/call/2012-04-24/Accounts/${a.sid}/Recordings.json`;
const admin = (url: string, method: string, path: string, body?: unknown) =>
  fetch(`${url}/__admin${path}`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe('no request stalls the others', () => {
  let em: Spawned;
  let big: AdminAccount;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-resp-'));
    const fixtures = join(dir, 'f.json');
    writeFileSync(
      fixtures,
      JSON.stringify({ accounts: [{ friendly_name: 'Big', calls: 2_000_000, recordings: 1000 }] }),
    );
    em = await startCli(['--fixtures', fixtures, '--log-level', 'silent', '--cache-mb', '0']);
    [big] = (await adminAccounts(em.url)) as [AdminAccount];
  });
  afterAll(() => em.stop());

  test('while the first page sorted by From of 2,000,000 calls is built', async () => {
    const page = await underAttack(em, () =>
      fetch(callsUrl(em.url, big, '?SortBy=From:desc'), { headers: basic(big.token) }).then((r) => r.json()),
    );
    expect((page as { total: number }).total).toBe(2_000_000);
  });

  test('while the first page filtered by Status of 2,000,000 calls is built', async () => {
    const page = await underAttack(em, () =>
      fetch(callsUrl(em.url, big, '?Status=busy&PageSize=5'), { headers: basic(big.token) }).then((r) => r.json()),
    );
    expect((page as { page_size: number }).page_size).toBe(5);
  });

  test('while a LIKE pattern of fourteen % and an x filters 2,000,000 calls', async () => {
    const bytes = await underAttack(em, () => curl(callsUrl(em.url, big, `?From=${'%25'.repeat(14)}x`), big.token));
    expect(bytes).toBeGreaterThan(0);
  });

  test('while requests with 5,000-character paths meet a fault of six stars', async () => {
    await admin(em.url, 'POST', '/faults', { path: '/*a*a*a*a*a*b', status: 418 });
    const long = `${em.url}/${'a'.repeat(5000)}`;
    const statuses = await underAttack(
      em,
      () => Promise.all(Array.from({ length: 50 }, () => fetch(long).then((r) => r.status))),
      true,
    );
    // The path has no b: the fault does not match, and the path is simply not found.
    expect(new Set(statuses)).toEqual(new Set([404]));
    await admin(em.url, 'DELETE', '/faults');
  });

  test('while 15 KB paths meet 300 faults of a long pattern each', async () => {
    for (let i = 0; i < 300; i++)
      await admin(em.url, 'POST', '/faults', { path: `/*${'a'.repeat(190)}b`, status: 418 });
    const long = `${em.url}/${'a'.repeat(15_000)}`;
    expect(((await (await admin(em.url, 'GET', '/faults')).json()) as { faults: unknown[] }).faults).toHaveLength(300);
    const statuses = await underAttack(
      em,
      () => Promise.all(Array.from({ length: 3 }, () => fetch(long).then((r) => r.status))),
      true,
    );
    expect(new Set(statuses)).toEqual(new Set([404]));
    await admin(em.url, 'DELETE', '/faults');
  });

  test('while 20,000 inserted calls are merged into the first page sorted by To of 2,000,000', async () => {
    await admin(
      em.url,
      'POST',
      `/accounts/${big.sid}/calls`,
      Array.from({ length: 20_000 }, () => ({})),
    );
    const page = await underAttack(em, () =>
      fetch(callsUrl(em.url, big, '?SortBy=To:asc&PageSize=5'), { headers: basic(big.token) }).then((r) => r.json()),
    );
    expect((page as { total: number }).total).toBe(2_020_000);
    await admin(em.url, 'POST', `/accounts/${big.sid}/reset`);
  });

  test('while a 300,000-call page streams to a fast reader', async () => {
    const bytes = await underAttack(em, () => curl(callsUrl(em.url, big, '?PageSize=300000'), big.token));
    expect(bytes).toBeGreaterThan(100_000_000);
  });

  test('while eight long recordings download at once', async () => {
    const calls = await admin(em.url, 'POST', `/accounts/${big.sid}/calls`, [
      { duration: 2 * 3600, status: 'completed' },
    ]);
    const [call] = (await calls.json()) as [{ sid: string }];
    // Half an hour of a two-hour call: 14.4 MB of audio each (the drawn share of the call would
    // make the size, and the time it takes, depend on the seed).
    const recs = await admin(em.url, 'POST', `/accounts/${big.sid}/recordings`, [
      { call_sid: call.sid, duration: '1800' },
    ]);
    const [rec] = (await recs.json()) as [{ file_uri: string; duration: string }];
    const bytes = 44 + Math.round(Number(rec.duration) * 8000) * 2;
    expect(bytes).toBeGreaterThan(5_000_000);
    const read = await underAttack(em, () => Promise.all(Array.from({ length: 8 }, () => curl(rec.file_uri))));
    expect(read).toEqual(Array.from({ length: 8 }, () => bytes));
  });

  test('while a 1 MB batch of 300,000 calls is inserted, and its echo streams to a fast reader', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-batch-'));
    const file = join(dir, 'batch.json');
    writeFileSync(file, JSON.stringify(Array.from({ length: 300_000 }, () => ({}))));
    const url = `${em.url}/__admin/accounts/${big.sid}/calls`;
    const count = async () =>
      ((await (await admin(em.url, 'GET', `/accounts/${big.sid}`)).json()) as { calls: number }).calls;
    const before = await count();
    const bytes = await underAttack(em, () => curlPost(url, file));
    // Every call shown back as the API shows it: hundreds of bytes each, streamed, never held whole.
    expect(bytes).toBeGreaterThan(300_000 * 300);
    expect(await count()).toBe(before + 300_000);
    await admin(em.url, 'POST', `/accounts/${big.sid}/reset`);
  });

  test('while a state with 40,000 inserted calls is imported', async () => {
    await admin(em.url, 'POST', '/reset');
    const state = (await (await admin(em.url, 'GET', '/state')).json()) as { accounts: Record<string, unknown>[] };
    const account = state.accounts[0] as Record<string, unknown>;
    account['inserted_calls'] = Array.from({ length: 40_000 }, (_, i) => ({
      from: `+1555${String(i).padStart(7, '0')}`,
    }));
    account['call_inserts'] = 40_000;
    const status = await underAttack(em, () => admin(em.url, 'PUT', '/state', state).then((r) => r.status));
    expect(status).toBe(200);
    await admin(em.url, 'POST', '/reset');
  });
});

describe('clock moves over live traffic', () => {
  test.each([
    ['four weeks', 'P28D', 3600 * 24 * 28],
    ['ten years', 'P3650D', 3600 * 24 * 3650],
  ])(
    'a move of %s at 3,600 calls an hour answers, and so do health and the calls and recordings lists after it',
    async (_what, advance, seconds) => {
      const dir = mkdtempSync(join(tmpdir(), 'callrec-traffic-'));
      const fixtures = join(dir, 'f.json');
      writeFileSync(
        fixtures,
        JSON.stringify({
          accounts: [{ friendly_name: 'T', calls: 448, recordings: 160, traffic: { calls_per_hour: 3600 } }],
        }),
      );
      const em = await startCli(['--fixtures', fixtures, '--log-level', 'silent']);
      try {
        const [a] = (await adminAccounts(em.url)) as [AdminAccount];
        const counts = (await underAttack(
          em,
          async () => {
            expect((await admin(em.url, 'POST', '/clock', { advance })).status).toBe(200);
            const page = (await (
              await fetch(callsUrl(em.url, a, '?PageSize=2'), { headers: basic(a.token) })
            ).json()) as {
              total: number;
            };
            const health = (await (await fetch(`${em.url}/__admin/health`)).json()) as {
              recordings: number;
              clock: string;
            };
            return { calls: page.total, recordings: health.recordings, clockMs: Date.parse(health.clock) };
          },
          true,
          // The first count after the move looks at the last four hours' calls once: about 0.1 s.
          500,
        )) as { calls: number; recordings: number; clockMs: number };
        // One arrival a second, give or take the slot's seeded point; 3 of every 8 recorded.
        expect(Math.abs(counts.calls - 448 - seconds)).toBeLessThanOrEqual(2);
        expect(counts.recordings).toBeGreaterThan(160 + 0.37 * seconds);
        expect(counts.recordings).toBeLessThan(160 + 0.38 * seconds);
        // The recordings list after the move: newest and oldest pages, one in the middle, and
        // the same pages oldest first. Placing one looks at the few hours of recordings near it.
        const total = counts.recordings;
        const pages = await underAttack(
          em,
          async () => {
            const got: { sids: string[]; total: number; dates: number[] }[] = [];
            for (const query of [
              'Page=0',
              `Page=${Math.floor(total / 100)}`,
              `Page=${Math.floor(total / 200)}`,
              'SortBy=DateCreated:asc&Page=0',
              `SortBy=DateCreated:asc&Page=${Math.floor(total / 200)}`,
            ]) {
              const res = await fetch(`${recordingsUrl(em.url, a)}?PageSize=100&${query}`, { headers: basic(a.token) });
              expect(res.status).toBe(200);
              const body = (await res.json()) as { total: number; recordings: { sid: string; date_created: string }[] };
              got.push({
                total: body.total,
                sids: body.recordings.map((r) => r.sid),
                dates: body.recordings.map((r) => Date.parse(r.date_created)),
              });
            }
            return got;
          },
          true,
          500,
        );
        for (const page of pages) {
          expect(page.total).toBe(total);
          expect(page.sids.length).toBeGreaterThan(0);
        }
        const [newest, oldest, middle, first, middleAsc] = pages as [
          (typeof pages)[0],
          (typeof pages)[0],
          (typeof pages)[0],
          (typeof pages)[0],
          (typeof pages)[0],
        ];
        // Newest first falls, oldest first rises; the last page of one is the first of the other.
        for (const [page, sign] of [
          [newest, -1],
          [middle, -1],
          [first, 1],
          [middleAsc, 1],
        ] as const)
          for (let k = 1; k < page.dates.length; k++)
            expect(sign * ((page.dates[k] as number) - (page.dates[k - 1] as number))).toBeGreaterThanOrEqual(0);
        expect(oldest.sids.at(-1)).toBe(first.sids[0]);
        // The newest recording is of the last few hours' traffic.
        expect(newest.dates[0] as number).toBeGreaterThan(counts.clockMs - 5 * 3600 * 1000);
      } finally {
        await em.stop();
      }
    },
    120_000,
  );
});

describe('the walks report', () => {
  test('over 4,000 journaled page requests is built in slices and paged: health answers throughout', async () => {
    const em = await startCli(['--log-level', 'silent', '--journal-size', '20000']);
    try {
      const [a] = (await adminAccounts(em.url)) as [AdminAccount];
      // Each a walk of its own (page 0 starts one), over the whole 448-call list.
      for (let i = 0; i < 4000; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, () =>
            fetch(callsUrl(em.url, a, '?PageSize=10'), { headers: basic(a.token) }).then((r) => r.arrayBuffer()),
          ),
        );
      }
      // One request, which could freeze the server alone; since walks that stop short list no
      // misses, it may end within a few probes: held to the baseline ratio, as a short attack is.
      const report = (await underAttack(
        em,
        () => fetch(`${em.url}/__admin/walks?limit=1000&offset=3000`).then((r) => r.json()),
        true,
      )) as {
        walks: { missed_count: number; missed: string[]; complete: boolean }[];
        syncs: { walks: number; served: number; missed_count: number }[];
        total: number;
        offset: number;
        limit: number;
      };
      expect([report.total, report.offset, report.limit, report.walks.length]).toEqual([4000, 3000, 1000, 1000]);
      // Each walk served page 0 only and stopped there: it missed nothing it passed.
      expect(report.walks[0]).toMatchObject({ complete: false, missed_count: 0, missed: [] });
      // Together they are one client's sync of the newest ten, which it saw every time.
      expect(report.syncs).toEqual([expect.objectContaining({ walks: 4000, served: 10, missed_count: 0 })]);
    } finally {
      await em.stop();
    }
  }, 120_000);
});

describe('a write does not tear a streamed page', () => {
  test.each([
    ['an account reset', (url: string, a: AdminAccount) => admin(url, 'POST', `/accounts/${a.sid}/reset`)],
    ['a global reset', (url: string) => admin(url, 'POST', '/reset')],
    [
      'a state import',
      async (url: string) => admin(url, 'PUT', '/state', await (await admin(url, 'GET', '/state')).json()),
    ],
  ])('%s while the page streams: the page is whole, as it was when it started', async (_what, write) => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-tear-'));
    const fixtures = join(dir, 'f.json');
    writeFileSync(fixtures, JSON.stringify({ accounts: [{ friendly_name: 'A', calls: 60_000 }] }));
    const em = await startCli(['--fixtures', fixtures, '--log-level', 'silent']);
    try {
      const [a] = (await adminAccounts(em.url)) as [AdminAccount];
      const inserted = (await (await admin(em.url, 'POST', `/accounts/${a.sid}/calls`, [{}, {}, {}])).json()) as {
        sid: string;
      }[];
      const res = await fetch(callsUrl(em.url, a, '?PageSize=70000'), { headers: basic(a.token) });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      const chunks: Uint8Array[] = [];
      const first = await reader.read();
      chunks.push(first.value as Uint8Array);
      // The server is mid-page (60 MB, paused on a full socket): write now.
      expect((await write(em.url, a)).status).toBe(200);
      for (let r = await reader.read(); r.done !== true; r = await reader.read()) chunks.push(r.value);
      const page = JSON.parse(Buffer.concat(chunks).toString()) as { total: number; calls: { sid: string }[] };
      expect(page.total).toBe(60_003);
      expect(page.calls).toHaveLength(60_003);
      expect(
        page.calls
          .slice(0, 3)
          .map((c) => c.sid)
          .sort(),
      ).toEqual(inserted.map((c) => c.sid).sort());
    } finally {
      await em.stop();
    }
  });
});

describe('orders built while writes land', () => {
  test('sorted and filtered lists over 200,000 calls, with inserts, deletes and resets meanwhile: no 5xx, and they finish', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-race-'));
    const fixtures = join(dir, 'f.json');
    writeFileSync(fixtures, JSON.stringify({ accounts: [{ friendly_name: 'A', calls: 200_000 }] }));
    const em = await startCli(['--fixtures', fixtures, '--log-level', 'silent']);
    try {
      const [a] = (await adminAccounts(em.url)) as [AdminAccount];
      // Counted, not timed: each lister sends its requests, and writes go on until they are all answered.
      const PER_LISTER = 5;
      let listing = 3;
      const statuses: number[] = [];
      const inserted: string[] = [];
      const queries = ['&To=%2B1%25', '&SortBy=From:desc', '&Status=busy', '&SortBy=To&From=%25555%25', ''];
      const lists = async (k: number) => {
        for (let n = k; n < k + PER_LISTER; n++) {
          const res = await fetch(callsUrl(em.url, a, `?PageSize=126${queries[n % queries.length]}`), {
            headers: basic(a.token),
          });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
        listing--;
      };
      let written = 0;
      const writes = async (k: number) => {
        for (let n = k; listing > 0; n++) {
          written++;
          if (n % 5 < 3) {
            const res = await admin(em.url, 'POST', `/accounts/${a.sid}/calls`, [{}, { status: 'busy' }]);
            for (const c of (await res.json()) as { sid: string }[]) inserted.push(c.sid);
          } else if (n % 5 === 3 && inserted.length > 0) {
            await admin(em.url, 'DELETE', `/accounts/${a.sid}/calls/${inserted.pop()}`);
          } else {
            await admin(em.url, 'POST', `/accounts/${a.sid}/reset`);
            inserted.length = 0;
          }
        }
      };
      await Promise.all([lists(0), lists(1), lists(2), writes(0), writes(2)]);
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.length).toBe(3 * PER_LISTER);
      expect(written).toBeGreaterThan(0);
    } finally {
      await em.stop();
    }
  });
});

/**
 * A receiver in a process of its own (the test's process probes health, and must not be the one
 * slowed by tens of thousands of posts): it answers each post after `delayMs`, counts them and
 * the most it held open at once, and tells on `GET /stats`.
 */
async function receiverProcess(delayMs: number): Promise<{ url: string; stop: () => void }> {
  const { spawn } = await import('node:child_process');
  const code = `
    let open = 0, most = 0, got = 0;
    require('node:http').createServer((q, s) => {
      if (q.url === '/stats') return s.end(JSON.stringify({ got, most }));
      open++; most = Math.max(most, open); got++;
      q.resume();
      q.on('end', () => setTimeout(() => { open--; s.end('OK'); }, ${delayMs}));
    }).listen(0, '127.0.0.1', function () { console.log(this.address().port); });`;
  const proc = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve) =>
    proc.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())),
  );
  return { url: `http://127.0.0.1:${port}`, stop: () => proc.kill() };
}

describe('status callbacks by the ten thousand', () => {
  test('a clock move that passes 14,000 callbacks: at most 100 under way at once, health answers throughout, and the journal of them is read six at a time in slices', async () => {
    const rx = await receiverProcess(2);
    const em = await startCli(['--log-level', 'silent']);
    try {
      const made = await admin(em.url, 'POST', '/accounts', {
        friendly_name: 'Busy line',
        traffic: { calls_per_hour: 3600 },
        status_callback: { url: `${rx.url}/in`, method: 'POST' },
      });
      expect(made.status).toBe(201);
      const moved = await underAttack(em, () => admin(em.url, 'POST', '/clock', { advance: 'PT2H' }));
      expect(moved.status).toBe(200);
      const stats = (await (await fetch(`${rx.url}/stats`)).json()) as { got: number; most: number };
      expect(stats.got).toBeGreaterThan(12_000);
      expect(stats.most).toBeLessThanOrEqual(100);
      const listed = await underAttack(em, () =>
        Promise.all([1, 2, 3, 4, 5, 6].map(() => curl(`${em.url}/__admin/callbacks`))),
      );
      for (const bytes of listed) expect(bytes).toBeGreaterThan(stats.got * 300);
      const page = (await (await admin(em.url, 'GET', '/callbacks?after=10&limit=5')).json()) as {
        callbacks: { seq: number }[];
      };
      expect(page.callbacks.map((c) => c.seq)).toEqual([11, 12, 13, 14, 15]);
    } finally {
      rx.stop();
      await em.stop();
    }
  }, 120_000);
});

/** `count` requests of `path` with `authorization`, 64 at a time, from a process of its own; resolves with the statuses seen. */
async function flood(url: string, path: string, authorization: string, count: number): Promise<number[]> {
  const code = `
    const http = require('node:http');
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const statuses = new Set();
    let sent = 0;
    const next = () => new Promise((done) => {
      if (sent >= ${count}) return done();
      sent++;
      http.get(${JSON.stringify(url + path)}, { agent, headers: { authorization: ${JSON.stringify(authorization)} } }, (res) => {
        statuses.add(res.statusCode); res.resume(); res.on('end', () => next().then(done));
      }).on('error', () => next().then(done));
    });
    Promise.all(Array.from({ length: 64 }, next)).then(() => { console.log(JSON.stringify([...statuses])); agent.destroy(); });`;
  const { execFile: run } = await import('node:child_process');
  return new Promise((resolve, reject) =>
    run(process.execPath, ['-e', code], (err, out) => (err === null ? resolve(JSON.parse(out)) : reject(err))),
  );
}

describe("the first rounds' freezes, found again", () => {
  test("the inspector's accounts view over 20,000 accounts with traffic, just after a clock move", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'callrec-20k-'));
    const fixtures = join(dir, 'f.json');
    const accounts = Array.from({ length: 20_000 }, (_, i) => ({
      friendly_name: `A${i}`,
      calls: 1000,
      recordings: 200,
      traffic: { calls_per_hour: 60 },
    }));
    writeFileSync(fixtures, JSON.stringify({ accounts }));
    const em = await startCli(['--fixtures', fixtures, '--log-level', 'silent']);
    try {
      expect((await admin(em.url, 'POST', '/clock', { advance: 'PT1H' })).status).toBe(200);
      const bytes = await underAttack(em, () => curl(`${em.url}/__admin/accounts?detail=true`));
      expect(bytes).toBeGreaterThan(20_000 * 100);
    } finally {
      await em.stop();
    }
  }, 120_000);

  test('a forced import of a state that holds 4,000 sandboxes, over 4,000 live ones', async () => {
    const em = await startCli(['--log-level', 'silent']);
    try {
      const [a] = await adminAccounts(em.url);
      for (let i = 0; i < 4000; i += 50) {
        await Promise.all(
          Array.from({ length: 50 }, () => admin(em.url, 'POST', '/sandboxes', { from: a?.sid }).then((r) => r.status)),
        );
      }
      const state = await (await admin(em.url, 'GET', '/state')).text();
      const dir = mkdtempSync(join(tmpdir(), 'callrec-state-'));
      writeFileSync(join(dir, 'state.json'), state);
      const status = await underAttack(em, () =>
        fetch(`${em.url}/__admin/state?force=true`, {
          method: 'PUT',
          headers: { 'Content-Type': 'application/json' },
          body: state,
        }).then((r) => r.status),
      );
      expect(status).toBe(200);
      expect(
        ((await (await admin(em.url, 'GET', '/sandboxes')).json()) as { sandboxes: unknown[] }).sandboxes,
      ).toHaveLength(4000);
    } finally {
      await em.stop();
    }
  }, 120_000);

  test('5,000 logins by email address in the Restcomm dialect', async () => {
    const em = await startCli(['--log-level', 'silent', '--dialect', 'restcomm']);
    try {
      const [a] = await adminAccounts(em.url);
      const me = (await (
        await fetch(`${em.url}/restcomm/2012-04-24/Accounts/${a?.sid}.json`, {
          headers: { authorization: `Basic ${Buffer.from(`${a?.sid}:${a?.token}`).toString('base64')}` },
        })
      ).json()) as { email_address: string };
      const authorization = `Basic ${Buffer.from(`${me.email_address}:${a?.token}`).toString('base64')}`;
      const statuses = await underAttack(em, () =>
        flood(em.url, `/restcomm/2012-04-24/Accounts/${a?.sid}/Calls.json?PageSize=1`, authorization, 5000),
      );
      expect(statuses).toEqual([200]);
    } finally {
      await em.stop();
    }
  }, 120_000);
});
