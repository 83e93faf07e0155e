const { createConfig } = require('../scripts/webpack/config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'auth',
  port: 3002,
  title: 'MotoParts sign-in (standalone)',
  exposes: {
    // The remote's route table, which the shell reads at runtime (shell/src/app/page-table.ts).
    './routes': './src/app/routes.ts',
    './LoginPage': './src/features/sign-in/pages/login-page.tsx',
    './SignupPage': './src/features/sign-in/pages/signup-page.tsx',
    './LoginCard': './src/features/sign-in/components/login-card.tsx',
    './session': './src/features/session/index.ts',
  },
  // The sign-in pages' first screens and their stylesheet, for the shell's index.html to paint
  // before the pages' code has run (src/app/prerender.tsx → prerender/auth.html,
  // prerender/first-screen.css).
  prerender: { 'prerender/': 'src/app/prerender.tsx' },
});
