const { createConfig } = require('../scripts/webpack/config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'dashboard',
  port: 3003,
  title: 'MotoParts dashboard (standalone)',
  exposes: {
    './DashboardApp': './src/app/dashboard-app.tsx',
  },
});
