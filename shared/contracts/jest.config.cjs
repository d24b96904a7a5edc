/** The contracts are plain TypeScript: their tests run in Node. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src'],
  testMatch: ['**/__tests__/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      'ts-jest',
      { tsconfig: { esModuleInterop: true, resolveJsonModule: true }, diagnostics: false },
    ],
  },
};
