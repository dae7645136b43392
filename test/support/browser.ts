import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { ROOT } from './process';

/** Where a Chromium is: CHROMIUM_PATH, else Debian's and the usual names; null when none is found. */
export function findChromium(): string | null {
  const candidates = [
    process.env['CHROMIUM_PATH'],
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
    '/usr/bin/google-chrome-stable',
  ];
  return candidates.find((p): p is string => p !== undefined && p !== '' && existsSync(p)) ?? null;
}

/**
 * Chromium, headless, cut off from the network but loopback: background services off (their
 * lookups would fail on a closed network), and audio may start without a gesture.
 */
export function launch(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

/** Where the tests save their screenshots (not committed; README's are copied from here, see UPDATE_SCREENSHOTS). */
export const SHOTS = join(ROOT, 'test-results', 'browser');

export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}
