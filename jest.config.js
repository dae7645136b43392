/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  // The support matrix installs other versions from the registry: `npm run test:matrix`, in CI.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/matrix/'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Type-checking is done once by `npm run typecheck`; ts-jest only transpiles (isolatedModules).
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/openapi-setup.ts'],
};
