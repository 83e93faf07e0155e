const { createConfig } = require('../scripts/webpack/config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'auth',
  port: 3002,
  title: 'MotoParts sign-in (standalone)',
  exposes: {
    './LoginPage': './src/features/sign-in/pages/login-page.tsx',
    './SignupPage': './src/features/sign-in/pages/signup-page.tsx',
    './LoginCard': './src/features/sign-in/components/login-card.tsx',
    './session': './src/features/session/index.ts',
  },
});
