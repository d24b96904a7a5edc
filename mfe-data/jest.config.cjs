module.exports = require('@site/build/jest-preset');
