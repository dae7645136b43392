import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** Servers of this checkout (or started from the run's scratch folder) still running: pid and command line. */
function leftoverServers(scratch: string): string[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' }).split('\n');
  return rows
    .map((r) => r.trim())
    .filter((r) => /dist\/cli\.js/.test(r) && (r.includes(join(ROOT, 'dist')) || r.includes(scratch)));
}

/**
 * Removes the run's scratch folder (see global-setup.ts), then checks the run left nothing: no
 * folder of its own in the system's temporary directory besides, and no server still running.
 * A leftover fails the run, naming it.
 */
export default async function globalTeardown(): Promise<void> {
  const dir = process.env['CALLREC_TEST_TMP'];
  if (dir === undefined || dir === '') return;
  const root = process.env['CALLREC_TEST_TMP_ROOT'] ?? '';
  const before = new Set((process.env['CALLREC_TEST_TMP_BEFORE'] ?? '').split('\n'));
  let servers = leftoverServers(dir);
  // A server told to stop may take a moment to go.
  for (let i = 0; i < 30 && servers.length > 0; i++) {
    await new Promise((r) => setTimeout(r, 100));
    servers = leftoverServers(dir);
  }
  rmSync(dir, { recursive: true, force: true });
  const stray = root === '' ? [] : readdirSync(root).filter((n) => /^callrec-(?!test-\d+-)/.test(n) && !before.has(n));
  if (servers.length > 0 || stray.length > 0) {
    throw new Error(
      `the test run left ${[...servers.map((s) => `a server (${s})`), ...stray.map((n) => `${join(root, n)}`)].join(', ')}`,
    );
  }
}
