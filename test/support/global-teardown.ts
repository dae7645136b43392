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
 * Removes the run's scratch folder (see global-setup.ts), then checks the run left nothing: a
 * server still running (a worker killed before its afterAll) is ended and named; a folder of its
 * own in the system's temporary directory besides fails the run, naming it.
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
  // A server a killed worker could not stop is ended here, and named: the run leaves none behind.
  for (const s of servers) {
    process.stderr.write(`callrec test run: ending a server its test left running: ${s}\n`);
    try {
      process.kill(Number(s.split(' ')[0]), 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const stray = root === '' ? [] : readdirSync(root).filter((n) => /^callrec-(?!test-\d+-)/.test(n) && !before.has(n));
  if (stray.length > 0) throw new Error(`the test run left ${stray.map((n) => join(root, n)).join(', ')}`);
}
