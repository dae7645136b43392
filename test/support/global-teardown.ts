import { rmSync } from 'node:fs';

/** Removes the run's scratch folder (see global-setup.ts). */
export default function globalTeardown(): void {
  const dir = process.env['CALLREC_TEST_TMP'];
  if (dir !== undefined && dir !== '') rmSync(dir, { recursive: true, force: true });
}
