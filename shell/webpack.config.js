const { createConfig } = require('../scripts/webpack-config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'shell',
  port: 3000,
  title: 'MotoParts',
  // index.html paints the top bar and the storefront's hero before any script runs (issue 8).
  firstScreen: 'src/first-screen.tsx',
});
