import { type RunSandbox, type SandboxOptions, sandboxPerTest } from './run';

export type { RunSandbox, SandboxOptions } from './run';
export { emulator } from './run';

/** jest's globals this module uses: read at call time, so importing it needs no @types/jest. */
interface JestGlobals {
  beforeEach?: (fn: () => Promise<void>) => void;
  afterEach?: (fn: () => Promise<void>) => void;
  expect?: { getState(): { currentTestName?: string } };
}

/**
 * A sandbox for each test of the file (or `describe`) it is called in: forked from the fixture
 * account `from` (sid or friendly name) before each test and named after it, deleted after.
 * With the `callrec-emulator/jest` preset, the run's one emulator is already started.
 * @example const sandbox = useSandbox('Acme Support Line'); test('…', async () => sandbox().addCalls({}));
 */
export function useSandbox(from: string, options: SandboxOptions = {}): () => RunSandbox {
  const g = globalThis as JestGlobals;
  const { beforeEach, afterEach } = g;
  if (beforeEach === undefined || afterEach === undefined) {
    throw new Error('callrec-emulator/jest: useSandbox needs jest globals (injectGlobals is off?)');
  }
  return sandboxPerTest(
    { beforeEach: (fn) => beforeEach(() => fn(g.expect?.getState().currentTestName)), afterEach },
    from,
    options,
  );
}
