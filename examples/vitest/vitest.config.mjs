// One emulator for the run (globalSetup), a sandbox per test (useSandbox in the test files).
// Run: npx vitest run -c examples/vitest/vitest.config.mjs
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
    globalSetup: ['callrec-emulator/vitest/setup'],
    pool: 'forks',
    poolOptions: { forks: { maxForks: 4, minForks: 1 } },
  },
});
