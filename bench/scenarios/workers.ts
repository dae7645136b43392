import { cpus } from 'node:os';
import type { Load } from '../context';
import { emulator, HAS_WRK, log, ROUNDS, rows, wrkLoad } from '../context';
import { type AdminAccount, accountsOf, basic, callsUrl, median } from '../lib';

/**
 * `--workers 2` against one process on the hot page, with wrk: the server's CPU time per request
 * (all its processes') and its throughput, in alternating rounds. wrk shares the machine's cores
 * with the server, so on two cores the throughput gain is bounded by what wrk leaves; the cost per
 * request is what carries over to a bigger machine. The row prints the core count.
 */
export async function workers(): Promise<void> {
  if (!HAS_WRK) {
    log('workers: SKIPPED (wrk not found: apt-get install wrk)');
    return;
  }
  const cores = cpus().length;
  const one = await emulator(['--log-level', 'silent']);
  const two = await emulator(['--log-level', 'silent', '--workers', '2']);
  const main = (await accountsOf(one.url)).find((a) => a.calls === 448) as AdminAccount;
  const auth = { authorization: basic(main.token) };
  const sides = { one: [] as Load[], two: [] as Load[] };
  // A round unrecorded each: every process compiled and its page cached when it counts.
  await wrkLoad(one, callsUrl(one.url, main.sid), auth);
  await wrkLoad(two, callsUrl(two.url, main.sid), auth);
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of r % 2 === 0 ? (['one', 'two'] as const) : (['two', 'one'] as const)) {
      const em = side === 'one' ? one : two;
      sides[side].push(await wrkLoad(em, callsUrl(em.url, main.sid), auth));
    }
  }
  const med = (loads: Load[], k: 'rps' | 'cpuPerReq') => median(loads.map((l) => l[k]));
  const cost = med(sides.two, 'cpuPerReq') / med(sides.one, 'cpuPerReq');
  const gain = med(sides.two, 'rps') / med(sides.one, 'rps');
  log(
    `workers (${cores} cores): one process ${med(sides.one, 'rps').toFixed(0)} req/s at ${med(sides.one, 'cpuPerReq').toFixed(1)} µs CPU a request; --workers 2 ${med(sides.two, 'rps').toFixed(0)} req/s at ${med(sides.two, 'cpuPerReq').toFixed(1)} µs`,
  );
  rows.push({
    group: 'throughput',
    scenario: `hot page, wrk: --workers 2 against one process, on ${cores} cores (wrk takes one of them): server CPU per request (all its processes), and throughput`,
    emulator: `CPU/request ${cost.toFixed(2)}x one process's (${med(sides.two, 'cpuPerReq').toFixed(1)} vs ${med(sides.one, 'cpuPerReq').toFixed(1)} µs); ${med(sides.two, 'rps').toFixed(0)} vs ${med(sides.one, 'rps').toFixed(0)} req/s (${gain.toFixed(2)}x)`,
    value: cost,
    target: 'CPU/request ≤ 1.10x, throughput > 1x',
    met: cost <= 1.1 && gain > 1,
  });
  await Promise.all([one.stop(), two.stop()]);
}
