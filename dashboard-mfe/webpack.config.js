const { createConfig } = require('../scripts/webpack/config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'dashboard',
  port: 3003,
  title: 'MotoParts dashboard (standalone)',
  exposes: {
    // The remote's route table, which the shell reads at runtime (shell/src/app/page-table.ts).
    './routes': './src/app/routes.ts',
    './DashboardApp': './src/app/dashboard-app.tsx',
  },
  // The frame and the top of My Profile, for the shell's index.html to paint before the
  // dashboard's code has run (src/app/prerender.tsx → prerender/dashboard.html,
  // prerender/first-screen.css).
  prerender: { 'prerender/': 'src/app/prerender.tsx' },
});
