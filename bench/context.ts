import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import seedrandom from 'seedrandom';
import { type AdminAccount, type Child, CLI, cpuMs, median, ROOT, rssMb, spawnServer, treeCpuMs } from './lib';
import type { Row } from './report';

/** What every scenario of the benchmark shares: its mode, sizes, results, children and helpers. */
/**
 * `npm run bench [-- --smoke]`: the emulator against a bare node:http server writing the same
 * bytes, in alternating rounds, plus the scale runs. Loopback only; every process it starts is
 * stopped before it exits. `--smoke` runs the same code with short rounds and smaller accounts.
 */
export const smoke = process.argv.includes('--smoke');
export const ROUND_S = smoke ? 1 : 6;
export const ROUNDS = smoke ? 1 : 3;
export const CONNECTIONS = 32;
export const BIG = smoke ? 100_000 : 1_000_000;
export const HUGE = smoke ? 1_000_000 : 10_000_000;
/** Production's hazards as the bench turns them on: commit lag and three skewed nodes. */
export const HAZARDS = { commit_lag_s: 600, instances: { count: 3, max_skew_s: 60 } };
export const LATENCY_SAMPLES = smoke ? 40 : 400;
export const STARTS = smoke ? 2 : 5;
export const OUT = resolve(ROOT, 'bench', 'results', smoke ? 'smoke' : '');
// Request logging off, as in a load test; start-up is measured with the default (info) below.
export const PUBLIC = ['--public-url', 'http://bench.test', '--log-level', 'silent'];

export const rows: Row[] = [];
export const children: Child[] = [];
export const scratch = mkdtempSync(join(tmpdir(), 'callrec-bench-'));

export function log(text: string): void {
  process.stderr.write(`${text}\n`);
}

export async function emulator(args: string[], timeoutMs?: number): Promise<Child> {
  const child = await spawnServer([CLI, '--port', '0', ...PUBLIC, ...args], true, timeoutMs);
  children.push(child);
  return child;
}

export function fixture(name: string, accounts: unknown[]): string {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify({ accounts }));
  return file;
}

export const DEFAULT_ACCOUNTS = (
  JSON.parse(readFileSync(resolve(ROOT, 'fixtures', 'default.json'), 'utf8')) as { accounts: unknown[] }
).accounts;

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU use during the round, percent of one core. */
  cpu: number;
  /** Server CPU time per request, µs: what the server costs when the client is the bottleneck. */
  cpuPerReq: number;
}

export async function load(
  server: Child,
  url: string,
  setup?: (req: { path: string; headers: Record<string, string> }) => void,
  headers: Record<string, string> = {},
): Promise<Load> {
  const cpu0 = cpuMs(server.pid);
  const t0 = process.hrtime.bigint();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: ROUND_S,
    headers,
    ...(setup === undefined
      ? {}
      : {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => {
                const r = req as unknown as { path: string; headers: Record<string, string> };
                setup(r);
                return req;
              },
            },
          ],
        }),
  });
  const used = cpuMs(server.pid) - cpu0;
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpu: (100 * used) / wall,
    cpuPerReq: (used * 1000) / Math.max(1, result.requests.total),
  };
}

/** Whether wrk (Debian's package) is on PATH: a load generator in C, which the server outruns less than autocannon. */
export const HAS_WRK = spawnSync('wrk', ['--version']).error === undefined;

/** wrk's latency figure in ms: `812.00us`, `1.20ms`, `1.01s`. */
export function wrkMs(out: string, pct: string): number {
  const m = new RegExp(`\\s${pct}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
  if (m === null) return Number.NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

/** One wrk round (one thread, so the other core is the server's) with the server's CPU. */
export async function wrkLoad(
  server: Child,
  url: string,
  headers: Record<string, string> = {},
  script: string | null = null,
): Promise<Load> {
  const cpu0 = treeCpuMs(server.pid);
  const t0 = process.hrtime.bigint();
  const args = ['-t1', `-c${CONNECTIONS}`, `-d${ROUND_S}s`, '--latency', ...(script === null ? [] : ['-s', script])];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const { stdout } = await promisify(execFile)('wrk', [...args, url]);
  const used = treeCpuMs(server.pid) - cpu0;
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0),
    p50: wrkMs(stdout, '50'),
    p99: wrkMs(stdout, '99'),
    errors: non2xx + (socket === null ? 0 : socket.slice(1).reduce((n, x) => n + Number(x), 0)),
    cpu: (100 * used) / wall,
    cpuPerReq: (used * 1000) / Math.max(1, total),
  };
}

/** An emulator at a log level (null: the default), its request logs drained through a pipe, as under docker. */
export async function emulatorLogging(level: string | null): Promise<Child> {
  const args = [
    CLI,
    '--port',
    '0',
    '--public-url',
    'http://bench.test',
    ...(level === null ? [] : ['--log-level', level]),
  ];
  const child = await spawnServer(args, true);
  children.push(child);
  return child;
}

/** Alternating rounds of the baseline and the emulator; medians per side. */
export async function duel(
  name: string,
  label: string,
  run: (target: 'baseline' | 'emulator') => Promise<Load>,
  target: number,
  em: Child,
): Promise<{ baselineRps: number }> {
  const sides: Record<'baseline' | 'emulator', Load[]> = { baseline: [], emulator: [] };
  for (let r = 0; r < ROUNDS; r++) {
    const order: ('baseline' | 'emulator')[] = r % 2 === 0 ? ['baseline', 'emulator'] : ['emulator', 'baseline'];
    for (const side of order) sides[side].push(await run(side));
  }
  const pick = (side: 'baseline' | 'emulator', k: keyof Load) => median(sides[side].map((x) => x[k]));
  const ratio = pick('emulator', 'rps') / pick('baseline', 'rps');
  const describe = (side: 'baseline' | 'emulator') =>
    `${pick(side, 'rps').toFixed(0)} req/s (p50 ${pick(side, 'p50')} ms, p99 ${pick(side, 'p99')} ms; server CPU ${pick(side, 'cpu').toFixed(0)}%, ${pick(side, 'cpuPerReq').toFixed(0)} µs/req)`;
  const errors = sides.emulator.reduce((n, x) => n + x.errors, 0);
  log(
    `${name}: emulator ${pick('emulator', 'rps').toFixed(0)} req/s, baseline ${pick('baseline', 'rps').toFixed(0)} req/s, ratio ${ratio.toFixed(2)}, errors ${errors}`,
  );
  rows.push({
    group: 'throughput',
    scenario: name,
    emulator: describe('emulator'),
    baseline: describe('baseline'),
    value: ratio,
    target: `ratio >= ${target}`,
    met: ratio >= target && errors === 0,
    chart: { label, emulator: pick('emulator', 'rps'), baseline: pick('baseline', 'rps') },
    rssMb: rssMb(em.pid),
  });
  return { baselineRps: pick('baseline', 'rps') };
}

/**
 * A seeded stream of random list requests over the accounts (a random account, PageSize 10-100,
 * valid page and SortBy, or none), so that every run asks the same things: the cold pages rows.
 */
export function coldRequests(accounts: AdminAccount[]): () => { path: string; token: string } {
  const rng = seedrandom.alea('bench-cold');
  const sorts = [
    '',
    ...['DateCreated', 'From', 'To', 'Direction', 'Status', 'Duration', 'Price'].flatMap((a) => [
      `&SortBy=${a}:asc`,
      `&SortBy=${a}:desc`,
    ]),
  ];
  return () => {
    const a = accounts[Math.floor(rng() * accounts.length)] as AdminAccount;
    const size = 10 + Math.floor(rng() * 91);
    const page = Math.floor(rng() * (Math.floor(a.calls / size) + 1));
    const sort = sorts[Math.floor(rng() * sorts.length)] ?? '';
    return {
      path: `/call/2012-04-24/Accounts/${a.sid}/Calls.json?Page=${page}&PageSize=${size}${sort}`,
      token: a.token,
    };
  };
}

/** A POST to the admin API, timed from send to last byte. */
export async function adminPost(base: string, path: string, body: unknown): Promise<{ ms: number; json: unknown }> {
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${base}/__admin${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as unknown;
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, json };
}
