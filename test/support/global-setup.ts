import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether a process of that pid is alive (signal 0 tests without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * One scratch folder for the whole run: every `tmpdir()` of the tests (fixtures, packed
 * tarballs, consumer projects, browser profiles) and of the processes they start with the
 * environment lands in it, and global teardown removes it, so a run leaves nothing in /tmp.
 * The workers start after this and inherit the environment. A run killed before its teardown
 * left its folder: the folder names its run's pid, and the next run removes those of runs gone.
 */
export default function globalSetup(): void {
  const root = tmpdir();
  for (const name of readdirSync(root)) {
    const m = /^callrec-test-(\d+)-/.exec(name);
    if (m !== null && !alive(Number(m[1]))) rmSync(join(root, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(root, `callrec-test-${process.pid}-`));
  process.env['CALLREC_TEST_TMP'] = dir;
  process.env['TMPDIR'] = dir;
  // What the system's temporary directory held before: teardown fails the run on anything it adds there.
  process.env['CALLREC_TEST_TMP_ROOT'] = root;
  process.env['CALLREC_TEST_TMP_BEFORE'] = readdirSync(root)
    .filter((n) => n.startsWith('callrec-'))
    .join('\n');
}
