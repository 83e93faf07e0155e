module.exports = require('../scripts/jest-config.cjs')(__dirname);
