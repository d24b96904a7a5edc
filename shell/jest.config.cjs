module.exports = require('@site/shared/jest-preset');
