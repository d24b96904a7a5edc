/**
 * The mail-service's tests run in Node against real parts: an SMTP server on an ephemeral port,
 * and a real PostgreSQL (one for the run, on a free port, started by globalSetup; each test file
 * takes databases of its own from it, see src/__tests__/stores.ts). ts-jest only transpiles:
 * `npm run typecheck` is the type check.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testMatch: ['**/__tests__/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
  },
  globalSetup: '<rootDir>/src/__tests__/global-setup.ts',
  globalTeardown: '<rootDir>/src/__tests__/global-teardown.ts',
  // Child processes, SMTP round trips and retry timers: generous, but a hang still ends.
  testTimeout: 30000,
  // The machine is shared: one worker keeps a run lean and its timings steady.
  maxWorkers: 1,
};
