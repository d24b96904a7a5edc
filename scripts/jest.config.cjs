/**
 * The tooling's tests: Node, real child processes and files. ts-jest only transpiles; the type
 * check is `tsc -p scripts/__tests__`.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/__tests__'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/__tests__/tsconfig.json', diagnostics: false }],
  },
  // Supervised processes and their restart waits: generous, but a hang still ends.
  testTimeout: 30000,
};
