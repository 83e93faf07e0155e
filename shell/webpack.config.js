const { createConfig } = require('../scripts/webpack-config.cjs');

const base = createConfig({ dir: __dirname, name: 'shell', port: 3000, title: 'MotoParts' });

module.exports = (env, argv) => {
  const config = base(env, argv);
  // The shell's index.html answers every deep link (/purchase/:id, /dashboard/payment/:id), so its
  // script tags must be root-absolute: with publicPath 'auto' they would resolve under /purchase/.
  for (const plugin of config.plugins) {
    if (plugin.constructor.name === 'HtmlWebpackPlugin') plugin.options.publicPath = '/';
  }
  return config;
};
