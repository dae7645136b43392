/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  // Type-checking is done once by `npm run typecheck`; ts-jest only transpiles (isolatedModules).
  testTimeout: 30000,
  setupFilesAfterEnv: ['<rootDir>/test/support/openapi-setup.ts'],
};
