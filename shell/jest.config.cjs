const preset = require('@site/build/jest-preset');

// The site server's tests run in Node (each file says so in its docblock).
module.exports = { ...preset, roots: ['<rootDir>/src', '<rootDir>/server'] };
