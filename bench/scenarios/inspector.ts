import { existsSync } from 'node:fs';
import http from 'node:http';
import { emulator, fixture, log, rows, smoke } from '../context';
import { type AdminAccount, accountsOf, median } from '../lib';

/**
 * The inspector in Chromium: from navigation to the accounts table shown, on the default data,
 * against a static page with a table served by a bare node:http server (what no page can beat).
 * Skipped, saying so, without a Chromium.
 */
export async function inspector(): Promise<void> {
  const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env['CHROMIUM_PATH']].find(
    (p) => p !== undefined && p !== '' && existsSync(p),
  );
  if (chromiumPath === undefined) {
    log("inspector: skipped (no Chromium; install Debian's chromium)");
    return;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  const staticPage = '<!doctype html><title>t</title><main><table><caption>4 accounts</caption></table></main>';
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(staticPage);
  });
  await new Promise<void>((done) => bare.listen(0, '127.0.0.1', done));
  const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}/`;
  const em = await emulator([]);
  const time = async (url: string) => {
    const page = await browser.newPage();
    const t0 = performance.now();
    await page.goto(url);
    await page.locator('main table caption', { hasText: 'accounts' }).first().waitFor();
    const ms = performance.now() - t0;
    await page.close();
    return ms;
  };
  const n = smoke ? 3 : 15;
  const ours: number[] = [];
  const base: number[] = [];
  for (let i = 0; i < n; i++) {
    base.push(await time(bareUrl));
    ours.push(await time(`${em.url}/__admin/ui`));
  }
  bare.close();
  await em.stop();
  // A page of 1,000 calls, asked from the calls view already shown (as a person widens the page):
  // from the hash's change to the table drawn with its recordings marked.
  const wide = await emulator([
    '--fixtures',
    fixture('inspector', [{ friendly_name: 'Thousands', calls: 20_000, recordings: 7000 }]),
  ]);
  const [thousands] = (await accountsOf(wide.url)) as [AdminAccount];
  const pages: number[] = [];
  const page = await browser.newPage();
  await page.goto(`${wide.url}/__admin/ui#/calls/${thousands.sid}`);
  await page.locator('main table caption', { hasText: 'Page 0: 50 calls' }).waitFor();
  for (let i = 0; i < n; i++) {
    // A different page each time: no answer comes from the render cache.
    const t0 = performance.now();
    // Run in the page, where `location` is the page's (bench code has no DOM types).
    await page.evaluate(`location.hash = ${JSON.stringify(`#/calls/${thousands.sid}?PageSize=1000&Page=${i}`)}`);
    await page.locator('main table caption', { hasText: `Page ${i}: 1000 calls` }).waitFor();
    await page.locator('main tbody tr').nth(999).waitFor({ state: 'attached' });
    pages.push(performance.now() - t0);
  }
  await page.close();
  await browser.close();
  await wide.stop();
  const [ms, baseMs, pageMs] = [median(ours), median(base), median(pages)];
  log(`inspector: ${ms.toFixed(0)} ms to the accounts table (static page ${baseMs.toFixed(0)} ms)`);
  log(`inspector: ${pageMs.toFixed(0)} ms to a 1,000-call page drawn`);
  rows.push({
    group: 'scale',
    scenario: 'inspector: navigation to the first table shown (accounts), default data, Chromium',
    emulator: `${ms.toFixed(0)} ms (median of ${n}; a static page: ${baseMs.toFixed(0)} ms, ${(ms / baseMs).toFixed(1)}x)`,
    value: ms,
    target: '< 300 ms',
    met: ms < 300,
  });
  rows.push({
    group: 'scale',
    scenario: 'inspector: a 1,000-call page drawn (sent, answered, recordings marked, rendered), Chromium',
    emulator: `${pageMs.toFixed(0)} ms (median of ${n})`,
    value: pageMs,
    target: '< 400 ms',
    met: pageMs < 400,
  });
}
