import type { EmulatorOptions } from '../emulator';
import { startForRun } from './run';

/**
 * The preset's globalSetup: one emulator for the run, its options from the jest config's
 * `globals.callrec` (e.g. `{"seed": "ci", "fixtures": "./fixtures.json"}`).
 */
export default async function globalSetup(
  _global: unknown,
  project?: { globals?: { callrec?: EmulatorOptions } },
): Promise<void> {
  await startForRun(project?.globals?.callrec ?? {});
}
