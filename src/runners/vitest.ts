import { type RunSandbox, type SandboxOptions, sandboxPerTest } from './run';

export type { RunSandbox, SandboxOptions } from './run';
export { emulator, startForRun, stopForRun } from './run';

/** vitest's hooks, passed in: vitest is ESM only, so this (CommonJS) module cannot import them itself. */
interface VitestHooks {
  beforeEach(fn: (context: { task: { name: string } }) => Promise<void>): void;
  afterEach(fn: () => Promise<void>): void;
}

/**
 * A sandbox for each test: forked from the fixture account `from` (sid or friendly name) before
 * it and named after it, deleted after it.
 * @example import { beforeEach, afterEach } from 'vitest'; const sandbox = useSandbox('Acme Support Line', { beforeEach, afterEach });
 */
export function useSandbox(from: string, hooks: VitestHooks, options: SandboxOptions = {}): () => RunSandbox {
  return sandboxPerTest(
    {
      beforeEach: (fn) => hooks.beforeEach((context) => fn(context.task.name)),
      afterEach: (fn) => hooks.afterEach(fn),
    },
    from,
    options,
  );
}
