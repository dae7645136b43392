import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One scratch folder for the whole run: every `tmpdir()` of the tests (fixtures, packed
 * tarballs, consumer projects, browser profiles) and of the processes they start with the
 * environment lands in it, and global teardown removes it, so a run leaves nothing in /tmp.
 * The workers start after this and inherit the environment.
 */
export default function globalSetup(): void {
  const dir = mkdtempSync(join(tmpdir(), 'callrec-test-'));
  process.env['CALLREC_TEST_TMP'] = dir;
  process.env['TMPDIR'] = dir;
}
