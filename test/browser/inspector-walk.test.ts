/// <reference lib="dom" />
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { connect } from '../../src/client';
import { type EmulatorHandle, startEmulator } from '../../src/emulator';
import { findChromium, launch, SHOTS } from '../support/browser';

/**
 * The inspector's main tasks in one walk, by keyboard alone (Tab, Shift+Tab, Enter, Space,
 * typing), while a scripted client walks the same account: what a person does beside a test run.
 * Skipped without a Chromium, as the other browser tests are.
 */
const chromiumPath = findChromium();
const required = process.env['REQUIRE_BROWSER'] === '1';
const suite = chromiumPath === null && !required ? describe.skip : describe;

/** The largest account: pages of 1,000 make its client walk 60 pages long. */
const BIG = 60_000;
const FIXTURES = {
  accounts: [
    { friendly_name: 'Big Line', calls: BIG, recordings: 20_000, traffic: { calls_per_hour: 120 } },
    { friendly_name: 'Small Line', calls: 50, recordings: 10 },
  ],
};

/** A link as production prints it (no `/call`, no `.json`), as a client requests it. */
function requestable(printed: string): string {
  const at = printed.indexOf('?');
  let path = at < 0 ? printed : printed.slice(0, at);
  if (path.startsWith('/2012-04-24/')) path = `/call${path}`;
  if (!path.endsWith('.json')) path = `${path}.json`;
  return path + (at < 0 ? '' : printed.slice(at));
}

suite('the inspector by keyboard alone, while a client walks', () => {
  let browser: Browser;
  let em: EmulatorHandle;
  let page: Page;

  beforeAll(async () => {
    if (chromiumPath === null)
      throw new Error("REQUIRE_BROWSER=1 but no Chromium was found (install Debian's chromium, or set CHROMIUM_PATH)");
    browser = await launch(chromiumPath);
    em = await startEmulator({ seed: 'callrec', fixtures: FIXTURES });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await em?.close();
  });
  beforeEach(async () => {
    page = await browser.newPage({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    page.setDefaultTimeout(10_000);
  });
  afterEach(async () => {
    await page.close();
  });

  /** What has the focus, named; null when it fell to the page itself. */
  const focused = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      if (el === null || el === document.body || el === document.documentElement) return null;
      return `${el.tagName.toLowerCase()} ${el.getAttribute('aria-label') ?? el.textContent?.slice(0, 60) ?? ''}`;
    });
  /** Tab (or Shift+Tab) alone, until `target` has the focus; focus is never on <body> on the way. */
  const tabTo = async (target: Locator, back = false) => {
    const one = target.first();
    await one.waitFor();
    for (let i = 0; i < 500; i++) {
      if (await one.evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    }
    throw new Error(`Tab never reached ${target}; the focus is on ${await focused()}`);
  };
  /** Focus moved by keyboard, then a key pressed there (Enter by default). */
  const press = async (target: Locator, key = 'Enter', back = false) => {
    await tabTo(target, back);
    await page.keyboard.press(key);
  };
  /** A field reached by Tab, emptied and typed into. */
  const typeInto = async (target: Locator, text: string, back = false) => {
    await tabTo(target, back);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
  };
  /** After a task, the focus is on something of the page: never lost. */
  const focusKept = async (what: string) => {
    const on = await focused();
    if (on === null) throw new Error(`focus lost to <body> after ${what}`);
  };
  const nav = (name: string) => page.locator('#nav a', { hasText: new RegExp(`^${name}$`) });
  const caption = () => page.locator('main table caption').first().textContent();
  const columnOf = async (name: string) => {
    const headers = await page.locator('main table thead th').allTextContents();
    const k = headers.indexOf(name);
    return page.locator(`main table tbody tr td:nth-child(${k + 1})`).allTextContents();
  };

  test('every task of the walk, by keyboard, beside one complete client walk', async () => {
    const big = em.accounts.find((a) => a.calls === BIG)!;
    const small = em.accounts.find((a) => a.calls === 50)!;
    const auth = (token: string) => ({ Authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` });

    // The scripted client: walks the big account's calls by their links, a page between two of
    // the person's tasks, and to the end once they are done.
    let next: string | null = `/call/2012-04-24/Accounts/${big.sid}/Calls.json?PageSize=1000`;
    let clientPages = 0;
    const clientStep = async () => {
      if (next === null) return;
      const res = await fetch(`${em.url}${next}`, { headers: auth(big.token) });
      expect(res.status).toBe(200);
      const env = (await res.json()) as { next_page_uri: string };
      clientPages++;
      next = env.next_page_uri === 'null' ? null : requestable(env.next_page_uri);
    };
    await clientStep();

    // Pick the largest account from the accounts view: its calls count is a link.
    await page.goto(`${em.url}/__admin/ui`);
    await page.locator('main h2').first().waitFor();
    const counts = (await page.locator('main tbody tr td:nth-child(4)').allTextContents()).map(Number);
    const largest = Math.max(...counts);
    expect(largest).toBe(BIG);
    await press(page.locator('main tbody a', { hasText: new RegExp(`^${largest}$`) }));
    await page.locator('main h2', { hasText: 'Calls of Big Line' }).waitFor();
    await focusKept('opening the largest account');
    await clientStep();

    // Sort by From from its header, then Next and Last: the sort is kept, and no warning.
    await press(page.locator('main th button', { hasText: /^From$/ }));
    await page.waitForURL(/SortBy=From(:|%3A)asc/);
    await page.locator('main th[aria-sort="ascending"]', { hasText: 'From' }).waitFor();
    await focusKept('sorting by From');
    const sortedFirst = await columnOf('From');
    expect(sortedFirst).toEqual([...sortedFirst].sort());
    await press(page.getByRole('button', { name: 'Next', exact: true }));
    await page.locator('main table caption', { hasText: 'Page 1:' }).waitFor();
    await focusKept('Next');
    await press(page.getByRole('button', { name: 'Last', exact: true }), 'Enter', true);
    await page.locator('main table caption', { hasText: /^Page \d{4}:/ }).waitFor();
    await focusKept('Last');
    expect(page.url()).toContain('SortBy=From');
    expect(await page.locator('main th[aria-sort="ascending"]').textContent()).toBe('From');
    expect(await page.locator('main .warning').count()).toBe(0);
    // Production's Last of 60,000 in pages of 50 is page 1200, empty: Previous has the last items.
    expect(await caption()).toBe('Page 1200: 0 calls of 60,000');
    await press(page.getByRole('button', { name: 'Previous', exact: true }), 'Enter', true);
    await page.locator('main table caption', { hasText: 'Page 1199:' }).waitFor();
    await focusKept('Previous');
    expect(page.url()).toMatch(/SortBy=From(:|%3A)asc/);
    const lastFroms = await columnOf('From');
    expect(lastFroms).toHaveLength(50);
    expect(lastFroms).toEqual([...lastFroms].sort());
    expect((lastFroms[0] as string) >= (sortedFirst[sortedFirst.length - 1] as string)).toBe(true);
    await clientStep();

    // A Status filter from its values, then Last: the filter is kept.
    await typeInto(page.getByLabel('Status', { exact: true }), 'completed', true);
    await page.keyboard.press('Enter');
    await page.waitForURL(/Status=completed/);
    await page.locator('main table caption', { hasText: 'Page 0:' }).waitFor();
    await focusKept('the Status filter');
    const filtered = Number(/of ([\d,]+)$/.exec((await caption()) ?? '')?.[1]?.replace(/,/g, ''));
    expect(filtered).toBeGreaterThan(0);
    expect(filtered).toBeLessThan(BIG);
    await press(page.getByRole('button', { name: 'Last', exact: true }));
    await page.waitForURL(/Page=[1-9]/);
    await page.locator('main table caption', { hasText: /^Page [1-9]/ }).waitFor();
    await focusKept('Last of the filtered list');
    expect(page.url()).toContain('Status=completed');
    expect(new Set((await columnOf('Status')).map((s) => s.toLowerCase()))).toEqual(new Set(['completed']));
    await clientStep();

    // Open a call that has recordings (the list marks them) and play one.
    await press(nav('Calls'), 'Enter', true);
    await page.locator('main h2', { hasText: 'Calls of' }).waitFor();
    await focusKept('the Calls view');
    const recorded = page.locator('main a.recorded').first();
    await recorded.waitFor();
    expect(await recorded.textContent()).toMatch(/^▶ \d+ recordings?$/);
    await press(recorded);
    await page.locator('main h2', { hasText: /^Call / }).waitFor();
    await focusKept('opening a call');
    const audio = page.locator('main audio').first();
    await tabTo(audio);
    // The player's own keyboard control: Space plays.
    await page.keyboard.press('Space');
    await page.waitForFunction(() => {
      const el = document.querySelector('main audio') as HTMLAudioElement | null;
      return el !== null && !el.paused && el.currentTime > 0;
    });
    await focusKept('playing');
    await clientStep();

    // A 429 for the small account: made from a template, it fires on the very next request.
    await press(nav('Faults'), 'Enter', true);
    await page.locator('main h2', { hasText: 'Faults' }).waitFor();
    await tabTo(page.getByLabel('Account', { exact: true }));
    await page.keyboard.type('Small');
    await press(page.getByRole('button', { name: '429 with Retry-After' }));
    await page.locator('main table caption', { hasText: '1 faults' }).waitFor();
    await focusKept('adding a fault');
    expect(await page.getByLabel('Account', { exact: true }).inputValue()).toBe(small.sid);
    const curl = await fetch(`${em.url}/call/2012-04-24/Accounts/${small.sid}/Calls.json?PageSize=5`, {
      headers: auth(small.token),
    });
    expect(curl.status).toBe(429);
    expect(curl.headers.get('retry-after')).toBe('30');
    // The journal shows it, with its headers and its body.
    await press(nav('Journal'), 'Enter', true);
    const entry = page.locator('main tr', { hasText: `${small.sid}/Calls.json` }).getByRole('button');
    await press(entry.first());
    await page.locator('#request-detail', { hasText: '→ 429' }).waitFor();
    await focusKept('opening a journal entry');
    const answerHeaders = await page.locator('table', { hasText: 'Answer headers' }).textContent();
    expect(answerHeaders).toContain('retry-after');
    expect(answerHeaders).toContain('30');
    expect(await page.locator('pre.body').textContent()).toContain('"message"');
    await clientStep();

    // +1 h brings calls of live traffic, highlighted in the big account's list.
    await press(nav('Calls'), 'Enter', true);
    await page.locator('main h2', { hasText: 'Calls of' }).waitFor();
    const account = page.getByLabel('Account', { exact: true });
    if ((await account.inputValue()) !== big.sid) {
      await tabTo(account);
      await page.keyboard.type('Big');
      await page.locator('main h2', { hasText: 'Calls of Big Line' }).waitFor();
    }
    const before = await caption();
    await press(page.getByRole('button', { name: 'Advance the clock +1 h' }), 'Enter', true);
    await page.locator('#clock-now', { hasText: '13:00:00' }).waitFor();
    await page.locator('main .badge.new').first().waitFor();
    await focusKept('+1 h');
    expect(await caption()).not.toBe(before);
    const highlighted = await page
      .locator('main tbody tr')
      .first()
      .evaluate((tr) => getComputedStyle(tr.querySelector('td') as Element).backgroundColor);
    expect(highlighted).not.toBe('rgba(0, 0, 0, 0)');
    await clientStep();

    // Fork the big account, export the state, move the clock, import it back: the clock shown is the state's.
    await press(nav('Accounts'), 'Enter', true);
    await press(page.getByRole('button', { name: 'Fork Big Line into a sandbox' }));
    await page.locator('main table caption', { hasText: '1 of them sandboxes' }).waitFor();
    await focusKept('forking');
    await press(nav('State'), 'Enter', true);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      press(page.getByRole('button', { name: 'Export to a file' })),
    ]);
    const file = join(SHOTS, 'walk-state.json');
    await download.saveAs(file);
    await focusKept('exporting');
    const exportedClock = await page.locator('#clock-now').textContent();
    await press(page.getByRole('button', { name: 'Advance the clock +1 min' }), 'Enter', true);
    await page.locator('#clock-now', { hasText: '13:01:00' }).waitFor();
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      press(page.getByLabel('State file'), 'Space'),
    ]);
    await chooser.setFiles(file);
    await press(page.getByRole('button', { name: 'Import' }));
    // The fork is live: the import says it would end it, and offers to go on (focused).
    await page.locator('main .refusal [role="alert"]', { hasText: '1 live sandbox' }).waitFor();
    expect(await focused()).toBe('button Import anyway, ending the live sandboxes');
    await page.keyboard.press('Enter');
    await page.locator('#clock-now', { hasText: exportedClock ?? '' }).waitFor();
    await focusKept('importing');
    expect(await connect(em.url).clock.now()).toBe(exportedClock);
    await clientStep();

    // The client walks on to the end: the person's browsing made no walk and split none.
    while (next !== null) await clientStep();
    const { walks } = (await (await fetch(`${em.url}/__admin/walks?account=${big.sid}`)).json()) as {
      walks: { complete: boolean; pages: number; first_page: number; list: string }[];
    };
    expect(walks).toHaveLength(1);
    expect(walks[0]).toMatchObject({ list: 'calls', complete: true, first_page: 0, pages: clientPages });
  }, 180_000);

  test('a first sort of a large account shows its real progress, and can be left by keyboard', async () => {
    const made = await fetch(`${em.url}/__admin/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ friendly_name: 'Archive', calls: 3_000_000, recordings: 0 }),
    });
    const huge = (await made.json()) as { sid: string };
    await page.goto(`${em.url}/__admin/ui#/calls/${huge.sid}`);
    await page.locator('main h2', { hasText: 'Calls of Archive' }).waitFor();
    await press(page.locator('main th button', { hasText: /^To$/ }));
    const note = page.locator('main .busy');
    await note.waitFor();
    // The step and its count come from GET /__admin/builds: what the emulator is doing, how far.
    await note
      .locator('.step', { hasText: /step \d+, (Reading each call's to|Sorting): [\d,]+ of [\d,]+ \(\d+%\)/ })
      .waitFor();
    const value = await note.locator('progress').evaluate((p: HTMLProgressElement) => [p.value, p.max]);
    expect(value[1]).toBeGreaterThan(0);
    expect(value[0]).toBeLessThanOrEqual(value[1] as number);
    // Escape leaves the wait where the focus is: on the header just pressed.
    await page.keyboard.press('Escape');
    await note.waitFor({ state: 'detached' });
    await focusKept('stopping the wait');
    expect(await focused()).toBe('button To');
    expect(await caption()).toBe('Page 0: 50 calls of 3,000,000');
    // The emulator finishes the order meanwhile: then the sort is drawn with no wait.
    for (let i = 0; i < 600; i++) {
      const { builds } = (await (await fetch(`${em.url}/__admin/builds`)).json()) as { builds: unknown[] };
      if (builds.length === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await press(page.locator('main th button', { hasText: /^To$/ }));
    await page.locator('main th[aria-sort="ascending"]', { hasText: 'To' }).waitFor();
    expect(await page.locator('main .busy').count()).toBe(0);
  }, 120_000);
});
