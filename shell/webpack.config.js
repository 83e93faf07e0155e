const CopyPlugin = require('copy-webpack-plugin');
const { createConfig } = require('../scripts/webpack/config.cjs');

const base = createConfig({
  dir: __dirname,
  name: 'shell',
  port: 3000,
  title: 'MotoParts',
  // index.html paints the top bar and the storefront's hero before any script runs.
  firstScreen: 'src/first-screen/first-screen.tsx',
});

module.exports = async (env, argv) => {
  const config = await base(env, argv);
  // The shell inlines its stylesheet; remotes running standalone link this copy (state/standalone).
  config.plugins.push(new CopyPlugin({ patterns: [{ from: 'src/styles/shell.css', to: 'site.css' }] }));
  return config;
};
