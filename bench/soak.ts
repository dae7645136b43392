/**
 * `npm run soak [-- --seconds N] [-- --no-write]`: minutes of mixed load on one emulator, on
 * loopback only, bounded in time: list pages in every order and filter, audio ranges, inserts,
 * deletes, account and global resets, state exports and imports, faults, journal reads, while
 * health checks are timed and the server's RSS is sampled each second. It fails (exit 1) on any
 * 5xx or broken connection, and writes its figures into BENCHMARKS.md (between the soak markers).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AdminAccount, accountsOf, basic, CLI, percentile, ROOT, rssMb, sleep, spawnServer } from './lib';

const arg = (name: string) => process.argv.indexOf(name);
const SECONDS = arg('--seconds') > 0 ? Number(process.argv[arg('--seconds') + 1]) : 180;
const WRITE = arg('--no-write') < 0;
const WORKERS = 12;

/** A small seeded random source of the soak's own: the same mix of requests on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SORTS = ['', 'DateCreated', 'From:desc', 'To', 'Direction', 'Status:desc', 'Duration', 'Price:asc', 'junk'];
const FILTERS = [
  '',
  '&Status=busy',
  '&From=%25555',
  '&To=%2B1%25',
  '&StartTime=2025-05-20',
  `&From=${'%25'.repeat(14)}x`,
];

interface Tally {
  requests: number;
  byStatus: Map<number, number>;
  broken: number;
  serverErrors: string[];
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'callrec-soak-'));
  const fixtures = join(dir, 'soak.json');
  const defaults = (
    JSON.parse(readFileSync(resolve(ROOT, 'fixtures', 'default.json'), 'utf8')) as { accounts: unknown[] }
  ).accounts;
  writeFileSync(
    fixtures,
    JSON.stringify({ accounts: [...defaults, { friendly_name: 'Soak 1M', calls: 1_000_000, recordings: 700_000 }] }),
  );
  const em = await spawnServer(
    [CLI, '--port', '0', '--fixtures', fixtures, '--log-level', 'silent', '--journal-size', '100000'],
    true,
  );
  // The server has read its fixtures: the folder is this run's scratch, gone when the process ends.
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const url = em.url;
  const tally: Tally = { requests: 0, byStatus: new Map(), broken: 0, serverErrors: [] };
  let accounts: AdminAccount[] = await accountsOf(url);
  const inserted: { sid: string; call: string }[] = [];
  const deadline = Date.now() + SECONDS * 1000;

  const send = async (method: string, path: string, init: { body?: unknown; token?: string; range?: string } = {}) => {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'POST' && init.body === undefined) headers['Content-Type'] = 'application/json';
    if (init.token !== undefined) headers['Authorization'] = basic(init.token);
    if (init.range !== undefined) headers['Range'] = init.range;
    try {
      const res = await fetch(`${url}${path}`, {
        method,
        headers,
        ...(init.body === undefined
          ? {}
          : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
      });
      const text = await res.text();
      tally.requests++;
      tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
      if (res.status >= 500) tally.serverErrors.push(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
      return { status: res.status, text };
    } catch (err) {
      tally.requests++;
      tally.broken++;
      tally.serverErrors.push(`${method} ${path}: ${(err as Error).message}`);
      return { status: 0, text: '' };
    }
  };

  const api = (a: AdminAccount, r: () => number) => {
    const list = r() < 0.75 ? 'Calls' : 'Recordings';
    const total = list === 'Calls' ? a.calls : a.recordings;
    const size = 10 + Math.floor(r() * 190);
    const page = Math.floor(r() * Math.max(1, Math.min(2000, total / size)));
    const sort = list === 'Calls' ? (SORTS[Math.floor(r() * SORTS.length)] as string) : '';
    const filter = list === 'Calls' && r() < 0.2 ? (FILTERS[Math.floor(r() * FILTERS.length)] as string) : '';
    const query = `?Page=${page}&PageSize=${size}${sort === '' ? '' : `&SortBy=${sort}`}${filter}`;
    return send('GET', `/call/2012-04-24/Accounts/${a.sid}/${list}.json${query}`, { token: a.token });
  };

  const worker = async (id: number) => {
    const r = rng(id + 1);
    while (Date.now() < deadline) {
      const a = accounts[Math.floor(r() * accounts.length)] as AdminAccount;
      const x = r();
      if (x < 0.7) await api(a, r);
      else if (x < 0.8) {
        const res = await send('POST', `/__admin/accounts/${a.sid}/calls`, { body: [{}, { status: 'busy' }] });
        if (res.status === 201)
          for (const c of JSON.parse(res.text) as { sid: string }[]) inserted.push({ sid: a.sid, call: c.sid });
      } else if (x < 0.85) {
        const victim = inserted.splice(Math.floor(r() * inserted.length), 1)[0];
        if (victim !== undefined) await send('DELETE', `/__admin/accounts/${victim.sid}/calls/${victim.call}`);
      } else if (x < 0.88) await send('POST', `/__admin/accounts/${a.sid}/reset`);
      else if (x < 0.885) {
        await send('POST', '/__admin/reset');
        accounts = await accountsOf(url);
      } else if (x < 0.895) {
        const state = await send('GET', '/__admin/state');
        if (state.status === 200) await send('PUT', '/__admin/state', { body: state.text });
      } else if (x < 0.925) {
        const res = await send('POST', '/__admin/faults', { body: { account: a.sid, status: 418, times: 2 } });
        if (res.status === 201 && r() < 0.5)
          await send('DELETE', `/__admin/faults/${(JSON.parse(res.text) as { id: string }).id}`);
      } else if (x < 0.975) {
        const recs = await send('GET', `/call/2012-04-24/Accounts/${a.sid}/Recordings.json?PageSize=1`, {
          token: a.token,
        });
        const first =
          recs.status === 200
            ? (JSON.parse(recs.text) as { recordings: { file_uri: string }[] }).recordings[0]
            : undefined;
        if (first !== undefined) await send('GET', new URL(first.file_uri).pathname, { range: 'bytes=0-65535' });
      } else await send('GET', `/__admin/requests?account=${a.sid}&limit=50`);
    }
  };

  const health: number[] = [];
  const rss: number[] = [];
  const probe = async () => {
    while (Date.now() < deadline) {
      const t = performance.now();
      await send('GET', '/__admin/health');
      health.push(performance.now() - t);
      await sleep(100);
    }
  };
  const sample = async () => {
    while (Date.now() < deadline) {
      rss.push(rssMb(em.pid));
      await sleep(1000);
    }
  };
  const started = Date.now();
  await Promise.all([...Array.from({ length: WORKERS }, (_, i) => worker(i)), probe(), sample()]);
  const seconds = (Date.now() - started) / 1000;
  await em.stop();

  const half = rss.slice(Math.floor(rss.length / 2));
  const statuses = [...tally.byStatus]
    .sort(([x], [y]) => x - y)
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  const rows = [
    ['duration', `${seconds.toFixed(0)} s, ${WORKERS} clients and a health probe, loopback`],
    ['requests', `${tally.requests} (${(tally.requests / seconds).toFixed(0)}/s); ${statuses}`],
    ['5xx and broken connections', `${tally.serverErrors.length}`],
    [
      'health check latency',
      `p50 ${percentile(health, 50).toFixed(1)} ms, p99 ${percentile(health, 99).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms (${health.length} checks)`,
    ],
    [
      'server RSS',
      `start ${rss[0]?.toFixed(0)} MB, max ${Math.max(...rss).toFixed(0)} MB, end ${rss[rss.length - 1]?.toFixed(0)} MB; second half ${Math.min(...half).toFixed(0)}–${Math.max(...half).toFixed(0)} MB`,
    ],
  ];
  const table = ['| measure | result |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join('\n');
  process.stdout.write(`${table}\n`);
  for (const e of tally.serverErrors.slice(0, 10)) process.stdout.write(`  ${e}\n`);
  if (WRITE) {
    const doc = resolve(ROOT, 'BENCHMARKS.md');
    const text = readFileSync(doc, 'utf8');
    const block = `<!-- soak:start -->\nRun of ${new Date().toISOString()}, Node ${process.version}.\n\n${table}\n<!-- soak:end -->`;
    writeFileSync(doc, text.replace(/<!-- soak:start -->[\s\S]*<!-- soak:end -->/, block));
  }
  if (tally.serverErrors.length > 0) process.exitCode = 1;
}

void main();
