// @ts-check
// The HTML page of the shell and of each remote's standalone build, and the static files beside it.
const fs = require('node:fs');
const path = require('node:path');
const CopyPlugin = require('copy-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { prerender } = require('./prerender.cjs');

/**
 * @param {{ dir: string, title: string, firstScreen?: string }} o firstScreen: a module in dir whose
 *   default export returns { head, root }, the static first screen put into index.html
 * @returns {import('webpack').WebpackPluginInstance[]}
 */
function pagePlugins({ dir, title, firstScreen }) {
  const own = path.join(dir, 'public', 'index.html');
  return [
    new HtmlWebpackPlugin({
      // One page template for every front end; a workspace may bring its own in public/.
      template: fs.existsSync(own) ? own : path.join(__dirname, 'index.html'),
      title,
      chunks: ['main'],
      scriptLoading: 'defer',
      // index.html answers every deep link (/purchase/:id, /dashboard/myOrder), so its script
      // URLs must be root-absolute; 'auto' would resolve them under the route.
      publicPath: '/',
      // Rendered again on every compilation, so a watching build picks up changes.
      templateParameters: (compilation, assets, assetTags, options) => ({
        compilation,
        webpackConfig: compilation.options,
        htmlWebpackPlugin: {
          tags: assetTags,
          files: assets,
          options: {
            ...options,
            ...(firstScreen
              ? /** @type {{ head: string, root: string }} */ (prerender(path.join(dir, firstScreen)))
              : { head: '', root: '' }),
          },
        },
      }),
    }),
    new CopyPlugin({
      patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html'] }, noErrorOnMissing: true }],
    }),
  ];
}

module.exports = { pagePlugins };
