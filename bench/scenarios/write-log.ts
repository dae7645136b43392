import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { adminPost, CONNECTIONS, emulator, log, rows, smoke } from '../context';
import { median } from '../lib';

/** A redis-server of the bench's own on a free port (Debian's), or null when none is installed. */
async function benchRedis(): Promise<{ url: string; stop: () => void } | null> {
  if (spawnSync('sh', ['-c', 'command -v redis-server']).status !== 0) return null;
  const port = await new Promise<number>((done) => {
    const s = http.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as { port: number };
      s.close(() => done(p));
    });
  });
  const { spawn } = await import('node:child_process');
  const proc = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'pipe' });
  await new Promise<void>((done, fail) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) done();
    });
    proc.once('exit', () => fail(new Error(`redis-server: ${out}`)));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => proc.kill('SIGKILL') };
}

/**
 * The write log's cost does not grow with its length: an insert, a fork and a clock move (median
 * of 20 round trips each) with the log nearly empty, then again once it holds 100,000 entries
 * (journal clears, which change no record: only the log grows), on one process, on
 * `--workers 2` (the primary's log) and on `--redis` (a redis-server of the bench's own).
 */
export async function writeLog(): Promise<void> {
  const entries = smoke ? 2000 : 100_000;
  const MAIN = 'ACd8dd7d80798ecf306df57fed76428467';
  const redis = await benchRedis();
  const setups: [string, string[]][] = [
    ['one process', []],
    ['--workers 2', ['--workers', '2']],
  ];
  if (redis === null) log('write log: SKIPPED --redis (no redis-server installed)');
  else setups.push(['--redis', ['--redis', redis.url]]);
  const measure = async (url: string) => {
    const times = { insert: [] as number[], fork: [] as number[], clock: [] as number[] };
    for (let i = 0; i < 20; i++) {
      times.insert.push((await adminPost(url, `/accounts/${MAIN}/calls`, [{}])).ms);
      times.fork.push((await adminPost(url, '/sandboxes', { from: MAIN })).ms);
      times.clock.push((await adminPost(url, '/clock', { advance: 1 })).ms);
    }
    return { insert: median(times.insert), fork: median(times.fork), clock: median(times.clock) };
  };
  try {
    for (const [name, args] of setups) {
      const em = await emulator(args);
      const before = await measure(em.url);
      let sent = 0;
      const t0 = performance.now();
      await Promise.all(
        [...Array(CONNECTIONS).keys()].map(async () => {
          while (sent < entries) {
            sent++;
            const res = await fetch(`${em.url}/__admin/requests`, { method: 'DELETE' });
            await res.arrayBuffer();
          }
        }),
      );
      const fillS = (performance.now() - t0) / 1000;
      const after = await measure(em.url);
      if (name === '--redis') {
        // A replica that joins now replays the whole log before it answers: how long that takes.
        const late = await emulator(args);
        log(
          `write log (--redis): a replica started at ${entries} entries answered after ${late.readyMs.toFixed(0)} ms`,
        );
        rows.push({
          group: 'scale',
          scenario: `write log, --redis: start-up of a replica joining at ${entries.toLocaleString('en-US')} entries (it replays them all before it answers)`,
          emulator: `${late.readyMs.toFixed(0)} ms`,
          value: late.readyMs,
          // Within the read-your-write wait: a client that met a replica as it joined is answered.
          target: '< 5,000 ms',
          met: late.readyMs < 5000,
        });
        await late.stop();
      }
      const worst = Math.max(after.insert / before.insert, after.fork / before.fork, after.clock / before.clock);
      const ms = (x: { insert: number; fork: number; clock: number }) =>
        `${x.insert.toFixed(2)} / ${x.fork.toFixed(2)} / ${x.clock.toFixed(2)} ms`;
      log(
        `write log (${name}): ${ms(before)} at start; ${ms(after)} after ${entries} entries (${(entries / fillS).toFixed(0)} writes/s)`,
      );
      rows.push({
        group: 'scale',
        scenario: `write log, ${name}: insert / fork / clock move (median of 20 each) at ~60 entries, then at ${entries.toLocaleString('en-US')} (${(entries / fillS).toFixed(0)} writes/s filling it)`,
        emulator: `${ms(before)} → ${ms(after)} (worst ${worst.toFixed(2)}x)`,
        value: worst,
        target: '< 1.5x',
        met: worst < 1.5,
      });
      await em.stop();
    }
  } finally {
    redis?.stop();
  }
}
