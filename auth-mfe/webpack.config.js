const { createConfig } = require('../scripts/webpack-config.cjs');

module.exports = createConfig({
  dir: __dirname,
  name: 'auth',
  port: 3002,
  title: 'MotoParts sign-in (standalone)',
  exposes: {
    './LoginPage': './src/pages/login-page.tsx',
    './SignupPage': './src/pages/signup-page.tsx',
    './LoginCard': './src/components/login-card.tsx',
    './session': './src/session.ts',
  },
});
