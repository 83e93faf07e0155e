// @ts-check
// One webpack + Module Federation configuration for the shell and every remote, so the shared
// singletons and build settings cannot drift between teams. Each workspace's webpack.config.js
// calls createConfig with its own name, port and exposed modules (docs/build.md).
const path = require('node:path');
const MinimizerPlugin = require('minimizer-webpack-plugin');
const { checkRemoteContract, emitContract } = require('./contract.cjs');
const { ownCopyRewrites } = require('./own-copy.cjs');
const { federation } = require('./federation.cjs');
const { pagePlugins } = require('./page.cjs');
const { PrerenderPlugin } = require('./prerender.cjs');
const { SLIM_DIR, slimEntryImports } = require('./shared.cjs');
const { checkSlimCoverage } = require('./slim-check.cjs');

/** @typedef {import('webpack').Configuration} Configuration */

/**
 * Hashed names once the chunk's hash is known. A function because MF's runtime module asks for
 * this template before chunk hashes exist (only to learn the output folder).
 * @param {import('webpack').PathData} pathData
 */
const hashedWhenKnown = (pathData) =>
  pathData.chunk?.contentHash?.['javascript'] ? '[name].[contenthash:10].js' : '[name].js';

/**
 * webpack's default vendors chunk group, plus the slim entries: each lands in the chunk of the
 * package it re-exports, so the two are concatenated (and tree-shaken) into one file.
 * @param {import('webpack').Module} module
 */
const isVendor = (module) => {
  const file = module.nameForCondition() ?? '';
  return /[\\/]node_modules[\\/]/i.test(file) || file.startsWith(SLIM_DIR + path.sep);
};

/**
 * @param {object} o
 * @param {string} o.dir the workspace folder
 * @param {string} o.name the container name
 * @param {number} o.port where serve-static.mjs serves dist/, and the dev server's port when
 *   PORT_<NAME> does not say
 * @param {string} o.title the page title
 * @param {Record<string, string>} [o.exposes] a remote's exposed modules (none: the shell)
 * @param {Record<string, string>} [o.prerender] fragments a remote emits: asset path → module in
 *   dir (a path ending in `/` takes the module's { file name: content } object)
 * @param {string} [o.firstScreen] a module whose default export returns { head, root }, the
 *   static first screen put into index.html
 * @returns {(env: unknown, argv: { mode?: string }) => Promise<Configuration | Configuration[]>}
 */
function createConfig({ dir, name, port, exposes = {}, title, prerender: pages = {}, firstScreen }) {
  const pkg = require(path.join(dir, 'package.json'));
  const isRemote = Object.keys(exposes).length > 0;

  /**
   * @param {import('./federation.cjs').BuildKind} kind
   * @param {boolean} production
   * @param {import('./own-copy.cjs').OwnCopyImport[]} [ownCopies] a remote's imports of shared
   *   names the shell does not offer, taken from its own copy
   * @returns {Configuration}
   */
  const build = (kind, production, ownCopies = []) => ({
    context: dir,
    // The federated build of a remote has no page of its own: only the remoteEntry.js container.
    entry: kind === 'remote' ? {} : './src/index.ts',
    mode: production ? 'production' : 'development',
    // Production maps are written for error reports but not referenced from the bundles, and the
    // servers refuse to serve them (they hold the full sources). Development maps are inline:
    // eval-based ones would need 'unsafe-eval' in the Content-Security-Policy.
    devtool: production ? 'hidden-source-map' : 'inline-cheap-module-source-map',
    // Modern browsers only (ES2020: optional chaining, ??, async/await kept as is): drops the
    // ES5 helpers and arrow-function wrappers webpack would otherwise emit around every chunk.
    target: ['web', 'es2020'],
    output: {
      path: path.join(dir, 'dist'),
      // Chunks load from wherever this build's remoteEntry.js was served from.
      publicPath: 'auto',
      filename: production ? hashedWhenKnown : '[name].js',
      chunkFilename: '[name].[contenthash:10].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      // Both builds of a remote write into dist/: only the first one (standalone or shell) cleans
      // it, and only in production (in watch mode it would delete the other build's files).
      uniqueName: kind === 'standalone' ? `${name}_standalone` : name,
      clean: production && kind !== 'remote',
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs'],
      // Our workspaces publish TS sources under the "source" condition.
      conditionNames: ['source', '...'],
    },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: [
            {
              loader: 'ts-loader',
              options: { transpileOnly: true, configFile: path.join(dir, 'tsconfig.json') },
            },
            // Runs first: the names the shell does not offer come from the remote's own copy.
            ...(ownCopies.length > 0
              ? [
                  {
                    loader: require.resolve('./own-copy-loader.cjs'),
                    options: { rewrites: ownCopyRewrites(ownCopies) },
                  },
                ]
              : []),
          ],
        },
        {
          test: /\.css$/,
          type: 'asset/source',
          // Shipped as text inside the JavaScript: minified in production (css-minify-loader.cjs).
          use: production ? [require.resolve('./css-minify-loader.cjs')] : [],
        },
        { test: /\.(png|jpe?g|svg|webp)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      federation({ name, exposes, pkg }, kind),
      slimEntryImports,
      ...(kind === 'remote' && Object.keys(pages).length > 0
        ? [
            new PrerenderPlugin(
              Object.fromEntries(Object.entries(pages).map(([asset, file]) => [asset, path.join(dir, file)])),
            ),
          ]
        : []),
      ...(kind === 'remote' ? [] : pagePlugins({ dir, title, firstScreen })),
      ...(kind === 'shell' ? [emitContract] : []),
    ],
    performance: { hints: false },
    optimization: {
      moduleIds: 'deterministic',
      splitChunks: {
        cacheGroups: {
          defaultVendors: { idHint: 'vendors', reuseExistingChunk: true, priority: -10, test: isVendor },
        },
      },
      chunkIds: 'deterministic',
      // Webpack's own minimizer, configured here for what its defaults do not offer: terser with
      // ES2020 output (shorter syntax) and three compress passes; license comments go to each
      // chunk's .LICENSE.txt beside it, without the pointer line webpack would prepend to the
      // chunk (~60 B gzip each, five of them on a cold home page).
      minimizer: [
        new MinimizerPlugin({
          terserOptions: {
            ecma: 2020,
            module: false,
            compress: { passes: 3, ecma: 2020 },
            format: { comments: false },
          },
          extractComments: { banner: false },
        }),
      ],
    },
    stats: production ? 'errors-warnings' : 'minimal',
    infrastructureLogging: { level: 'warn' },
    // Informative here: serve-static.mjs (or the dev server) serves the build on it.
    name: `${name}${kind === 'remote' ? '-remote' : ''}:${port}`,
  });

  return async (env, argv) => {
    checkSlimCoverage();
    const production = argv.mode !== 'development';
    // `webpack serve` (a team's dev loop): the dev server, in development mode only.
    const serve = Boolean(/** @type {{ WEBPACK_SERVE?: boolean } | undefined} */ (env)?.WEBPACK_SERVE);
    if (serve && (production || !isRemote)) {
      throw new Error(
        `${name}: only a remote is served by the dev server, in development mode (npm start -- --dev <remote>)`,
      );
    }
    // The development shell hosts React Refresh for the remotes the dev server serves (dev.cjs).
    if (!isRemote)
      return production ? build('shell', true) : require('./dev.cjs').refreshHost(build('shell', false));
    // A remote the shell could not run fails here, before anything is bundled.
    const ownCopies = await checkRemoteContract({ dir, name, pkg });
    // Served: only the federated build, which the shell loads (the standalone page is not served).
    if (serve) return require('./dev.cjs').devServed(build('remote', false, ownCopies), { name, port });
    // The federated build runs after the standalone one (which cleans dist/ first).
    const standalone = build('standalone', production, ownCopies);
    const remote = { ...build('remote', production, ownCopies), dependencies: [`${standalone.name}`] };
    return [standalone, remote];
  };
}

module.exports = { createConfig };
