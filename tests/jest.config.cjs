const preset = require('@site/build/jest-preset');

// The cross-package component tests: they load every group's pages and the shell's, as a browser
// would meet them one after another.
module.exports = { ...preset, roots: ['<rootDir>/unit'] };
