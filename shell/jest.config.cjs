const preset = require('@site/build/jest-preset');

/**
 * The site server's tests run in Node (each file says so in its docblock), against one real
 * PostgreSQL for the run, on a free port, started by globalSetup; each test takes a database of
 * its own from it (server/__tests__/test-postgres.ts).
 */
module.exports = {
  ...preset,
  roots: ['<rootDir>/src', '<rootDir>/server'],
  globalSetup: '<rootDir>/server/__tests__/global-setup.ts',
  globalTeardown: '<rootDir>/server/__tests__/global-teardown.ts',
};
