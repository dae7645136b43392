/**
 * Four workers, one emulator, a sandbox per test: the preset starts the emulator for the run
 * (globals.callrec are its options) and every test forks the account it names.
 * Run: npx jest -c examples/jest-sandboxes/jest.config.js
 */
module.exports = {
  preset: 'callrec-emulator/jest',
  rootDir: __dirname,
  maxWorkers: 4,
  globals: { callrec: { seed: 'sandbox-suite' } },
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', esModuleInterop: true, strict: true } }] },
  testMatch: ['<rootDir>/*.test.ts'],
};
