/// <reference lib="dom" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { connect } from '../../src/client';
import { type EmulatorHandle, startEmulator } from '../../src/emulator';
import { findChromium, launch } from '../support/browser';

/**
 * A web page of another origin, open in the same browser as the emulator, tries to reset it as
 * a CSRF would: a form post and fetch with no-cors. The emulator refuses both, while a script
 * (no Origin) and the inspector (its own origin) write. Skipped without a Chromium, unless
 * REQUIRE_BROWSER=1, as the inspector's tests are.
 */
const chromiumPath = findChromium();
const required = process.env['REQUIRE_BROWSER'] === '1';
const suite = chromiumPath === null && !required ? describe.skip : describe;

suite('admin writes from a page of another origin, in Chromium', () => {
  let browser: Browser;
  let em: EmulatorHandle;
  let site: http.Server;
  let siteUrl: string;

  beforeAll(async () => {
    if (chromiumPath === null) throw new Error('REQUIRE_BROWSER=1 but no Chromium was found');
    browser = await launch(chromiumPath);
    em = await startEmulator({ seed: 'callrec' });
    // The other origin: a page served by a server of its own, on another port.
    site = http.createServer((_req, res) => {
      res.setHeader('Content-Type', 'text/html');
      res.end('<!doctype html><title>elsewhere</title><p>another site</p>');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteUrl = `http://localhost:${(site.address() as AddressInfo).port}/`;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await em?.close();
    await new Promise((r) => site?.close(r));
  });

  /** Inserts a call, so that a reset that got through would show: the account has one call more. */
  async function marked(): Promise<{ sid: string; count: () => Promise<number> }> {
    await em.reset();
    const [a] = em.accounts;
    await em.addCall(a!.sid, {});
    const count = async () => (await connect(em.url).accounts()).find((x) => x.sid === a!.sid)?.calls ?? -1;
    return { sid: a!.sid, count };
  }

  test('a form post and fetch no-cors from the other page do not reset; the account keeps its insert', async () => {
    const { count } = await marked();
    const before = await count();
    const page = await browser.newPage();
    try {
      await page.goto(siteUrl);
      const status = await page.evaluate(async (target) => {
        // fetch with no-cors: the answer is opaque to the page, but the request is sent.
        await fetch(`${target}/__admin/reset`, { method: 'POST', mode: 'no-cors' });
        await fetch(`${target}/__admin/reset`, { method: 'POST', mode: 'no-cors', body: 'x' });
        return 'sent';
      }, em.url);
      expect(status).toBe('sent');
      // A form posted into a frame, as a CSRF page does without any script at all.
      await page.setContent(
        `<iframe name="sink"></iframe><form id="f" method="POST" target="sink" action="${em.url}/__admin/reset"><input name="x" value="1"></form>`,
      );
      const answered = page.waitForResponse((r) => r.url() === `${em.url}/__admin/reset`);
      await page.evaluate(() => (document.getElementById('f') as HTMLFormElement).submit());
      expect((await answered).status()).toBe(403);
    } finally {
      await page.close();
    }
    expect(await count()).toBe(before);
  });

  test('the inspector, on its own origin, resets; so does a script (no Origin)', async () => {
    const { count } = await marked();
    const before = await count();
    const page = await browser.newPage();
    try {
      await page.goto(`${em.url}/__admin/ui`);
      const status = await page.evaluate(async () => (await fetch('/__admin/reset', { method: 'POST' })).status);
      expect(status).toBe(200);
    } finally {
      await page.close();
    }
    expect(await count()).toBe(before - 1);
    await em.addCall(em.accounts[0]!.sid, {});
    expect((await fetch(`${em.url}/__admin/reset`, { method: 'POST' })).status).toBe(200);
    expect(await count()).toBe(before - 1);
  });
});
