import { adminPost, emulator, fixture, HUGE, log, rows, smoke } from '../context';
import { type AdminAccount, accountsOf, callsUrl, median, rssMb, sleep, timedGet } from '../lib';

/** Sandboxes: the time to fork a huge account (median of 20, over loopback), and what 1,000 forks of the default accounts cost in RSS. */
export async function sandboxes(): Promise<void> {
  const fmt = (n: number) => n.toLocaleString('en-US');
  const hugeFixture = fixture('fork-huge', [{ friendly_name: 'Huge', calls: HUGE, recordings: 0 }]);
  const em = await emulator(['--fixtures', hugeFixture]);
  const [huge] = (await accountsOf(em.url)) as [AdminAccount];
  // Its default order built, as a parent in use has it.
  await timedGet(callsUrl(em.url, huge.sid, '?SortBy=From:asc'), huge.token);
  const times: number[] = [];
  for (let i = 0; i < 20; i++) times.push((await adminPost(em.url, '/sandboxes', { from: huge.sid })).ms);
  const forkMs = median(times);
  log(`fork of ${fmt(HUGE)} calls: ${forkMs.toFixed(2)} ms`);
  rows.push({
    group: 'scale',
    scenario: `fork a ${fmt(HUGE)}-call account (POST /__admin/sandboxes, round trip)`,
    emulator: `${forkMs.toFixed(2)} ms (median of 20)`,
    value: forkMs,
    target: '< 5 ms',
    met: forkMs < 5,
  });
  await em.stop();

  const small = await emulator([]);
  const accounts = await accountsOf(small.url);
  global.gc?.();
  await sleep(200);
  const before = rssMb(small.pid);
  const count = smoke ? 100 : 1000;
  for (let i = 0; i < count; i++) {
    await adminPost(small.url, '/sandboxes', { from: (accounts[i % accounts.length] as AdminAccount).sid });
  }
  await sleep(200);
  const grown = rssMb(small.pid) - before;
  log(`${count} sandboxes: RSS +${grown.toFixed(1)} MB`);
  rows.push({
    group: 'scale',
    scenario: `${fmt(count)} live sandboxes of the default accounts`,
    emulator: `RSS +${grown.toFixed(1)} MB`,
    value: grown,
    target: '< 50 MB',
    met: grown < 50,
  });
  await small.stop();

  // The same, of an account holding 100,000 writes: copy-on-write, so no fork copies them.
  const written = await emulator([]);
  const [parent] = (await accountsOf(written.url)) as [AdminAccount];
  for (let k = 0; k < 100_000; k += 20_000) {
    await adminPost(
      written.url,
      `/accounts/${parent.sid}/calls`,
      Array.from({ length: 20_000 }, () => ({})),
    );
  }
  await sleep(500);
  const base = rssMb(written.pid);
  for (let i = 0; i < count; i++) await adminPost(written.url, '/sandboxes', { from: parent.sid });
  await sleep(200);
  const forked = rssMb(written.pid) - base;
  log(`${count} sandboxes of an account with 100,000 writes: RSS +${forked.toFixed(1)} MB`);
  rows.push({
    group: 'scale',
    scenario: `${fmt(count)} live sandboxes of an account holding 100,000 writes`,
    emulator: `RSS +${forked.toFixed(1)} MB`,
    value: forked,
    target: '< 50 MB',
    met: forked < 50,
  });
  await written.stop();
}
