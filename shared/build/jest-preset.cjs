/**
 * Jest settings shared by the browser-side workspaces: TypeScript through ts-jest, jsdom, CSS
 * imports ignored, and the polyfills React Router needs in jsdom.
 */
const path = require('node:path');

module.exports = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/src'],
  testMatch: ['**/__tests__/**/*.test.ts?(x)'],
  transform: {
    '^.+\\.tsx?$': [
      'ts-jest',
      {
        tsconfig: { jsx: 'react-jsx', esModuleInterop: true, resolveJsonModule: true },
        diagnostics: false,
      },
    ],
  },
  moduleNameMapper: {
    '\\.(css)$': path.join(__dirname, 'jest', 'style-stub.cjs'),
  },
  setupFiles: [path.join(__dirname, 'jest', 'polyfills.cjs')],
  setupFilesAfterEnv: [path.join(__dirname, 'jest', 'setup.cjs')],
};
