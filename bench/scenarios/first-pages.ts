import { emulator, fixture, HUGE, log, rows, smoke } from '../context';
import { type AdminAccount, accountsOf, callsUrl, rssMb, sleep, timedGet } from '../lib';

/** What a first page of a huge account is asked with: every documented order, and the filters. */
const FIRST_PAGES = [
  // From (then From:desc) and Status first: the RSS is read with those three orders built.
  ...['From', 'Status', 'To', 'Direction', 'Duration', 'Price'].map((a) => `SortBy=${a}:asc`),
  'Status=completed',
  'From=%2B1%25',
  'To=5',
  'StartTime=2025-01-01',
  'EndTime=2025-01-01',
];

/**
 * The first page of a huge account in each documented order and filter (each a query never
 * asked before), with /__admin/health asked every 50 ms throughout: the slowest first page
 * against the target, the slowest health answer beside it; at the largest size, the RSS once
 * three orders are built (From both ways, Status).
 */
export async function firstPages(): Promise<void> {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const sizes = smoke
    ? [[HUGE, 1000]]
    : [
        [HUGE, 1000],
        [5 * HUGE, 3000],
      ];
  for (const [calls, targetMs] of sizes as [number, number][]) {
    const em = await emulator([
      '--fixtures',
      fixture(`first-${calls}`, [{ friendly_name: 'Huge', calls, recordings: 0 }]),
    ]);
    const [huge] = (await accountsOf(em.url)) as [AdminAccount];
    let probing = true;
    let worstHealth = 0;
    const probes = (async () => {
      while (probing) {
        // A connection of its own (fetch): the keep-alive agent of timedGet sends one request at a time.
        const t0 = performance.now();
        await (await fetch(`${em.url}/__admin/health`)).arrayBuffer();
        worstHealth = Math.max(worstHealth, performance.now() - t0);
        await sleep(50);
      }
    })();
    const times: [string, number][] = [];
    let rssAfterThree = 0;
    for (const query of FIRST_PAGES) {
      const t = await timedGet(callsUrl(em.url, huge.sid, `?${query}`), huge.token);
      if (t.status !== 200) throw new Error(`${query}: ${t.status}`);
      times.push([query, t.ms]);
      log(`first page of ${fmt(calls)} calls, ${query}: ${t.ms.toFixed(0)} ms`);
      if (query === 'SortBy=From:asc') await timedGet(callsUrl(em.url, huge.sid, '?SortBy=From:desc'), huge.token);
      if (query === 'SortBy=Status:asc') rssAfterThree = rssMb(em.pid);
    }
    probing = false;
    await probes;
    const sorts = times.filter(([q]) => q.startsWith('SortBy'));
    const filters = times.filter(([q]) => !q.startsWith('SortBy'));
    const worst = (list: [string, number][]) => list.reduce((a, b) => (b[1] > a[1] ? b : a));
    for (const [kind, list] of [
      ['order', sorts],
      ['filter', filters],
    ] as const) {
      const [query, ms] = worst(list);
      rows.push({
        group: 'scale',
        scenario: `first page in every documented ${kind} of ${fmt(calls)} calls: the slowest (${list.length} asked; health probed every 50 ms)`,
        emulator: `${ms.toFixed(0)} ms (${query}); all: ${list.map(([, m]) => m.toFixed(0)).join(', ')} ms; slowest health ${worstHealth.toFixed(0)} ms`,
        value: ms,
        target: `< ${fmt(targetMs)} ms`,
        met: ms < targetMs,
      });
    }
    if (calls > HUGE || smoke) {
      rows.push({
        group: 'scale',
        scenario: `RSS with three orders of ${fmt(calls)} calls built (From both ways, Status)`,
        emulator: `${rssAfterThree.toFixed(0)} MB`,
        value: rssAfterThree,
        target: '< 1,024 MB',
        met: rssAfterThree < 1024,
      });
    }
    await em.stop();
  }
}
