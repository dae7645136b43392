import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join, resolve } from 'node:path';
import seedrandom from 'seedrandom';
import {
  BIG,
  DEFAULT_ACCOUNTS,
  emulator,
  fixture,
  HAZARDS,
  HUGE,
  LATENCY_SAMPLES,
  log,
  rows,
  STARTS,
  scratch,
} from '../context';
import {
  type AdminAccount,
  accountsOf,
  basic,
  callsUrl,
  median,
  percentile,
  rssMb,
  sleep,
  spawnServer,
  timedGet,
} from '../lib';

/**
 * Spawn to the first 200 of the printed curl URL, beside a bare node:http server's spawn to its
 * first 200 measured the same way, in alternating starts: the ratio is the figure (a machine's
 * speed moves both), with the milliseconds beside it.
 */
async function startup(name: string, args: string[], targetMs: number): Promise<void> {
  const times: number[] = [];
  const bare: number[] = [];
  const body = join(scratch, 'startup-body.json');
  writeFileSync(body, '{}');
  for (let i = 0; i < STARTS; i++) {
    const t0 = process.hrtime.bigint();
    const em = await emulator(args);
    const res = await timedGet(em.tryUrl as string, em.tryToken);
    if (res.status !== 200) throw new Error(`start-up probe got ${res.status}`);
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    await em.stop();
    const b0 = process.hrtime.bigint();
    const baseline = await spawnServer([resolve(__dirname, '..', 'baseline-server.js'), body], false);
    if ((await timedGet(baseline.url)).status !== 200) throw new Error('baseline start-up probe failed');
    bare.push(Number(process.hrtime.bigint() - b0) / 1e6);
    await baseline.stop();
  }
  const ms = median(times);
  const ratio = ms / median(bare);
  log(`${name}: ${ms.toFixed(0)} ms (bare node:http: ${median(bare).toFixed(0)} ms, ${ratio.toFixed(2)}x)`);
  rows.push({
    group: 'scale',
    scenario: `${name}, against a bare node:http server's spawn to first 200`,
    emulator: `${ms.toFixed(0)} ms`,
    baseline: `${median(bare).toFixed(0)} ms`,
    value: ratio,
    target: `≤ 2x bare, < ${targetMs} ms`,
    met: ratio <= 2 && ms < targetMs,
  });
}

/** Median latency of distinct random pages (an ignored parameter keeps each URL new). */
async function pageLatency(
  base: string,
  a: AdminAccount,
  query: string,
  samples: number,
  seed: string,
): Promise<{ p50: number; p99: number }> {
  const rng = seedrandom.alea(seed);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const page = Math.floor(rng() * Math.floor(a.calls / 10));
    const res = await timedGet(callsUrl(base, a.sid, `?Page=${page}&PageSize=10${query}&probe=${i}`), a.token);
    if (res.status !== 200) throw new Error(`latency probe got ${res.status}`);
    times.push(res.ms);
  }
  return { p50: median(times), p99: percentile(times, 99) };
}

export async function scale(): Promise<void> {
  await startup('start-up, default data (spawn to first 200)', ['--log-level', 'warn'], 300);
  const hugeFixture = fixture('huge', [{ friendly_name: 'Huge', calls: HUGE, recordings: 0 }, ...DEFAULT_ACCOUNTS]);
  await startup(`start-up, with a ${HUGE.toLocaleString('en-US')}-call account`, ['--fixtures', hugeFixture], 1000);
  // Live traffic is generated on read: an account with it starts as fast as one without.
  const liveTraffic = { calls_per_hour: 3600 };
  const liveFixture = fixture('huge-live', [
    { friendly_name: 'Huge', calls: HUGE, recordings: 0, traffic: liveTraffic },
    ...DEFAULT_ACCOUNTS,
  ]);
  await startup(
    `start-up, with a ${HUGE.toLocaleString('en-US')}-call account with live traffic`,
    ['--fixtures', liveFixture],
    1000,
  );
  // Production's hazards shape the traffic as it is read: they cost nothing at start-up either.
  const hazardsFixture = fixture('huge-hazards', [
    { friendly_name: 'Huge', calls: HUGE, recordings: 0, traffic: liveTraffic, hazards: HAZARDS },
    ...DEFAULT_ACCOUNTS,
  ]);
  await startup(
    `start-up, with a ${HUGE.toLocaleString('en-US')}-call account with live traffic and hazards on`,
    ['--fixtures', hazardsFixture],
    1000,
  );

  const sizes = fixture('sizes', [
    { friendly_name: 'Small', calls: 1000, recordings: 0 },
    { friendly_name: 'Big', calls: BIG, recordings: 0 },
    { friendly_name: 'Huge', calls: HUGE, recordings: 0 },
  ]);
  // No caches here: every page is rendered, so the figures compare the work per page alone.
  const em = await emulator(['--fixtures', sizes, '--cache-mb', '0']);
  const [small, big, huge] = (await accountsOf(em.url)) as [AdminAccount, AdminAccount, AdminAccount];
  const fmt = (n: number) => n.toLocaleString('en-US');
  // A discarded first pass warms the JIT, so the reference is not the slowest for being first.
  await pageLatency(em.url, small, '', LATENCY_SAMPLES, 'warm-up');
  const base = await pageLatency(em.url, small, '', LATENCY_SAMPLES, 'l1');
  rows.push({
    group: 'latency',
    scenario: `page latency, ${fmt(1000)} calls, default order`,
    emulator: `p50 ${base.p50.toFixed(2)} ms, p99 ${base.p99.toFixed(2)} ms`,
    value: base.p50,
    target: 'reference',
    met: true,
    chart: { label: '1,000\ndefault', emulator: base.p50 },
  });
  for (const [label, query] of [
    ['default order', ''],
    ['DateCreated:asc', '&SortBy=DateCreated:asc'],
  ] as const) {
    const l = await pageLatency(em.url, huge, query, LATENCY_SAMPLES, `l-${label}`);
    const ratio = l.p50 / base.p50;
    log(`10M ${label}: p50 ${l.p50.toFixed(2)} ms, ratio ${ratio.toFixed(2)}`);
    rows.push({
      group: 'latency',
      scenario: `page latency, ${fmt(HUGE)} calls, ${label}`,
      emulator: `p50 ${l.p50.toFixed(2)} ms, p99 ${l.p99.toFixed(2)} ms`,
      value: ratio,
      target: 'ratio to 1,000 calls <= 1.5',
      met: ratio <= 1.5,
      chart: { label: `${HUGE / 1e6}M\n${label}`, emulator: l.p50 },
    });
  }

  // The same account with live traffic, a day on: 86,400 calls have arrived, made on read.
  const liveSizes = fixture('sizes-live', [
    { friendly_name: 'Small', calls: 1000, recordings: 0 },
    { friendly_name: 'Huge', calls: HUGE, recordings: 0, traffic: liveTraffic },
    { friendly_name: 'Hazards', calls: HUGE, recordings: 0, traffic: liveTraffic, hazards: HAZARDS },
  ]);
  const live = await emulator(['--fixtures', liveSizes, '--cache-mb', '0']);
  await fetch(`${live.url}/__admin/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance: 'P1D' }),
  });
  const [liveSmall, liveHuge, liveHazards] = (await accountsOf(live.url)) as [AdminAccount, AdminAccount, AdminAccount];
  await pageLatency(live.url, liveSmall, '', LATENCY_SAMPLES, 'warm-up');
  const liveBase = await pageLatency(live.url, liveSmall, '', LATENCY_SAMPLES, 'l1');
  const withTraffic = await pageLatency(live.url, liveHuge, '', LATENCY_SAMPLES, 'l-live');
  const liveRatio = withTraffic.p50 / liveBase.p50;
  log(
    `10M with traffic, a day on (${fmt(liveHuge.calls - HUGE)} arrived): p50 ${withTraffic.p50.toFixed(2)} ms, ratio ${liveRatio.toFixed(2)}`,
  );
  rows.push({
    group: 'latency',
    scenario: `page latency, ${fmt(HUGE)} calls with live traffic a day on (${fmt(liveHuge.calls - HUGE)} arrived), default order`,
    emulator: `p50 ${withTraffic.p50.toFixed(2)} ms, p99 ${withTraffic.p99.toFixed(2)} ms (1,000 calls: ${liveBase.p50.toFixed(2)} ms)`,
    value: liveRatio,
    target: 'ratio to 1,000 calls <= 1.5',
    met: liveRatio <= 1.5,
    chart: { label: `${HUGE / 1e6}M\nlive`, emulator: withTraffic.p50 },
  });
  // The same with commit lag and three skewed nodes: each instant looks at the undecided
  // arrivals of its last minutes only.
  const withHazards = await pageLatency(live.url, liveHazards, '', LATENCY_SAMPLES, 'l-hazards');
  const hazardsRatio = withHazards.p50 / withTraffic.p50;
  log(
    `10M with traffic and hazards, a day on: p50 ${withHazards.p50.toFixed(2)} ms, ratio to without ${hazardsRatio.toFixed(2)}`,
  );
  rows.push({
    group: 'latency',
    scenario: `page latency, ${fmt(HUGE)} calls with live traffic and hazards on (commit lag 600 s, 3 nodes within 60 s) a day on, default order`,
    emulator: `p50 ${withHazards.p50.toFixed(2)} ms, p99 ${withHazards.p99.toFixed(2)} ms (without hazards: ${withTraffic.p50.toFixed(2)} ms)`,
    value: hazardsRatio,
    target: 'ratio to the same account without hazards <= 1.5',
    met: hazardsRatio <= 1.5,
    chart: { label: `${HUGE / 1e6}M\nhazards`, emulator: withHazards.p50 },
  });
  await live.stop();

  // The first sorted page of a big account builds its sort columns and the order.
  const first = await timedGet(callsUrl(em.url, big.sid, '?SortBy=From:asc'), big.token);
  log(`first From:asc page of ${fmt(BIG)}: ${first.ms.toFixed(0)} ms`);
  rows.push({
    group: 'scale',
    scenario: `first page sorted by From, ${fmt(BIG)} calls`,
    emulator: `${first.ms.toFixed(0)} ms`,
    value: first.ms,
    target: '< 3000 ms',
    met: first.ms < 3000,
  });
  await timedGet(callsUrl(em.url, small.sid, '?SortBy=From:asc'), small.token);
  const smallSorted = await pageLatency(em.url, small, '&SortBy=From:asc', LATENCY_SAMPLES, 's1');
  const bigSorted = await pageLatency(em.url, big, '&SortBy=From:asc', LATENCY_SAMPLES, 's2');
  const sortedRatio = bigSorted.p50 / smallSorted.p50;
  rows.push({
    group: 'latency',
    scenario: `later pages sorted by From, ${fmt(BIG)} calls`,
    emulator: `p50 ${bigSorted.p50.toFixed(2)} ms (1,000 calls: ${smallSorted.p50.toFixed(2)} ms)`,
    value: sortedRatio,
    target: 'ratio to 1,000 calls <= 1.5',
    met: sortedRatio <= 1.5,
    chart: { label: `${BIG / 1e6}M\nFrom:asc`, emulator: bigSorted.p50 },
  });

  // A filter: its first page builds the filtered order, later pages are slices of it.
  const f0 = process.hrtime.bigint();
  const busy = (await (
    await fetch(callsUrl(em.url, big.sid, '?Status=busy&PageSize=10'), { headers: { authorization: basic(big.token) } })
  ).json()) as { total: number };
  const firstFiltered = { ms: Number(process.hrtime.bigint() - f0) / 1e6 };
  const unfiltered = await pageLatency(em.url, big, '', LATENCY_SAMPLES, 'f0');
  const filtered = await pageLatency(
    em.url,
    { ...big, calls: Math.max(10, busy.total) },
    '&Status=busy',
    LATENCY_SAMPLES,
    'f1',
  );
  const filterRatio = filtered.p50 / unfiltered.p50;
  rows.push({
    group: 'scale',
    scenario: `first page filtered by Status=busy, ${fmt(BIG)} calls`,
    emulator: `${firstFiltered.ms.toFixed(0)} ms (${busy.total.toLocaleString('en-US')} busy calls)`,
    value: firstFiltered.ms,
    target: 'reported',
    met: true,
  });
  rows.push({
    group: 'latency',
    scenario: `later pages filtered by Status=busy, ${fmt(BIG)} calls`,
    emulator: `p50 ${filtered.p50.toFixed(2)} ms (unfiltered: ${unfiltered.p50.toFixed(2)} ms)`,
    value: filterRatio,
    target: 'ratio to unfiltered pages <= 1.5',
    met: filterRatio <= 1.5,
    chart: { label: `${BIG / 1e6}M\nStatus=busy`, emulator: filtered.p50 },
  });

  const t0 = process.hrtime.bigint();
  for (const attr of ['From', 'To', 'Direction', 'Status', 'Duration', 'Price', 'DateCreated']) {
    for (const dir of ['asc', 'desc']) await timedGet(callsUrl(em.url, big.sid, `?SortBy=${attr}:${dir}`), big.token);
  }
  const allOrdersMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const rss = rssMb(em.pid);
  log(`all orders of ${fmt(BIG)}: RSS ${rss.toFixed(0)} MB`);
  rows.push({
    group: 'scale',
    scenario: `RSS with all seven call orders (both directions) of ${fmt(BIG)} calls built`,
    emulator: `${rss.toFixed(0)} MB (the other 13 orders took ${allOrdersMs.toFixed(0)} ms)`,
    value: rss,
    target: '< 512 MB',
    met: rss < 512,
  });
  await em.stop();
  await streaming(sizes);
}

/** The whole list in one page, fast and then slowly read; RSS sampled while it streams. */
async function streaming(sizes: string): Promise<void> {
  const em = await emulator(['--fixtures', sizes]);
  const big = (await accountsOf(em.url))[1] as AdminAccount;
  await timedGet(callsUrl(em.url, big.sid, '?PageSize=10'), big.token);
  await sleep(200);
  const before = rssMb(em.pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(em.pid))), 25);
  const whole = await timedGet(callsUrl(em.url, big.sid, '?PageSize=99999999'), big.token);
  clearInterval(sampler);
  const growth = peak - before;
  log(`stream ${BIG}: ${(whole.bytes / 1e6).toFixed(0)} MB in ${whole.ms.toFixed(0)} ms, RSS +${growth.toFixed(0)} MB`);
  rows.push({
    group: 'scale',
    scenario: `PageSize=99999999 on ${BIG.toLocaleString('en-US')} calls, streamed`,
    emulator: `${(whole.bytes / 1e6).toFixed(0)} MB in ${(whole.ms / 1000).toFixed(1)} s (${(whole.bytes / 1e6 / (whole.ms / 1000)).toFixed(0)} MB/s), RSS +${growth.toFixed(0)} MB`,
    value: growth,
    target: 'RSS growth < 100 MB',
    met: growth < 100 && whole.status === 200,
  });

  // A slow reader: 64 KB every 50 ms for two seconds, then it hangs up.
  const slowBefore = rssMb(em.pid);
  let slowPeak = slowBefore;
  let read = 0;
  await new Promise<void>((done) => {
    const req = http.get(
      callsUrl(em.url, big.sid, '?PageSize=99999999&slow=1'),
      { headers: { authorization: basic(big.token) } },
      (res) => {
        res.pause();
        const tick = setInterval(() => {
          let budget = 64 * 1024;
          while (budget > 0) {
            const chunk = res.read() as Buffer | null;
            if (chunk === null) break;
            read += chunk.length;
            budget -= chunk.length;
          }
          slowPeak = Math.max(slowPeak, rssMb(em.pid));
        }, 50);
        setTimeout(() => {
          clearInterval(tick);
          req.destroy();
          done();
        }, 2000);
      },
    );
    req.on('error', () => undefined);
  });
  const slowGrowth = slowPeak - slowBefore;
  log(`slow reader: read ${(read / 1e6).toFixed(1)} MB in 2 s, RSS +${slowGrowth.toFixed(0)} MB`);
  rows.push({
    group: 'scale',
    scenario: 'the same, read slowly (64 KB per 50 ms for 2 s)',
    emulator: `client read ${(read / 1e6).toFixed(1)} MB of ${(whole.bytes / 1e6).toFixed(0)} MB; RSS +${slowGrowth.toFixed(0)} MB`,
    value: slowGrowth,
    target: 'backpressure: RSS growth < 100 MB',
    met: slowGrowth < 100,
  });
  await em.stop();
}
