const { createConfig } = require('../scripts/webpack-config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'storefront',
  port: 3001,
  title: 'MotoParts storefront (standalone)',
  exposes: {
    './HomePage': './src/pages/home-page.tsx',
  },
});
