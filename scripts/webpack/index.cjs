// @ts-check
// What each workspace's webpack.config.js requires: the one configuration factory for the shell
// and the remotes. How the build works: docs/build.md.
const { createConfig } = require('./config.cjs');

module.exports = { createConfig };
