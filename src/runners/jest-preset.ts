/**
 * `preset: 'callrec-emulator/jest'`: jest looks for `callrec-emulator/jest/jest-preset`, which
 * the package's exports map to this file. Absolute paths, so the preset works from any rootDir.
 */
export = {
  testEnvironment: 'node',
  globalSetup: require.resolve('./jest-global-setup'),
  globalTeardown: require.resolve('./jest-global-teardown'),
};
