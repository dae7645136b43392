/**
 * One emulator for the whole test run: started by globalSetup, stopped by globalTeardown.
 * Run: npx jest -c examples/jest/jest.config.js
 */
module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', esModuleInterop: true, strict: true } }] },
  globalSetup: '<rootDir>/global-setup.ts',
  globalTeardown: '<rootDir>/global-teardown.ts',
  testMatch: ['<rootDir>/*.test.ts'],
};
