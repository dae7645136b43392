import { after, afterEach, before, beforeEach } from 'node:test';

import type { EmulatorOptions } from '../emulator';
import { type RunSandbox, type SandboxOptions, sandboxPerTest, startForRun, stopForRun } from './run';

export type { RunSandbox, SandboxOptions } from './run';
export { emulator } from './run';

/**
 * node's test runner runs each file in a process of its own, with no setup shared by the run:
 * this starts an emulator for the file's tests (stopped after them), unless `CALLREC_URL` names
 * one already running, which the files then share.
 * @example useEmulator({ seed: 'ci' });
 */
export function useEmulator(options: EmulatorOptions = {}): void {
  before(async () => startForRun(options));
  after(async () => stopForRun());
}

/**
 * A sandbox for each test: forked from the fixture account `from` (sid or friendly name) before
 * it and named after it, deleted after it.
 * @example const sandbox = useSandbox('Acme Support Line'); test('…', async () => sandbox().addCalls({}));
 */
export function useSandbox(from: string, options: SandboxOptions = {}): () => RunSandbox {
  return sandboxPerTest(
    { beforeEach: (fn) => beforeEach((t) => fn(t.name)), afterEach: (fn) => afterEach(fn) },
    from,
    options,
  );
}
