// One webpack + Module Federation configuration for the shell and every remote, so the shared
// singletons and build settings cannot drift between teams. Each workspace's webpack.config.js
// calls it with its own name, port and exposed modules.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

const rootPkg = (name) => require(path.join(__dirname, '..', 'node_modules', name, 'package.json'));

/** Shared singletons (guide §5): one copy of each at runtime, version ranges from package.json. */
function sharedSingletons(pkg) {
  const deps = pkg.dependencies;
  const single = (range) => ({ singleton: true, requiredVersion: range });
  return {
    react: single(deps.react),
    'react/jsx-runtime': single(deps.react),
    'react-dom': single(deps['react-dom']),
    'react-dom/client': single(deps['react-dom']),
    'react-router-dom': single(deps['react-router-dom']),
    // react-router-dom v7 re-exports react-router; share it too so there is one router context.
    'react-router': single(`^${rootPkg('react-router').version}`),
    'react-redux': single(deps['react-redux']),
    '@reduxjs/toolkit': single(deps['@reduxjs/toolkit']),
    '@reduxjs/toolkit/query/react': single(deps['@reduxjs/toolkit']),
    '@motoparts/state': single(deps['@motoparts/state']),
    'react-toastify': single(deps['react-toastify']),
  };
}

/** @param {import('webpack').PathData} pathData */
function hashedWhenKnown(pathData) {
  return pathData.chunk && pathData.chunk.contentHash && pathData.chunk.contentHash.javascript
    ? '[name].[contenthash:10].js'
    : '[name].js';
}

/**
 * @param {{ dir: string, name: string, port: number, exposes?: Record<string,string>, title: string }} o
 */
function createConfig({ dir, name, port, exposes = {}, title }) {
  const pkg = require(path.join(dir, 'package.json'));
  return (env, argv) => {
    const production = argv.mode !== 'development';
    return {
      context: dir,
      entry: './src/index.ts',
      mode: production ? 'production' : 'development',
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        // Chunks load from wherever this build's remoteEntry.js was served from.
        publicPath: 'auto',
        // A function because MF's runtime module asks for this template before chunk hashes exist
        // (only to learn the output folder); the real file names get the content hash.
        filename: production ? hashedWhenKnown : '[name].js',
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
        assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
        uniqueName: name,
        clean: true,
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
            loader: 'ts-loader',
            exclude: /node_modules/,
            options: { transpileOnly: true, configFile: path.join(dir, 'tsconfig.json') },
          },
          { test: /\.css$/, type: 'asset/source' },
          { test: /\.(png|jpe?g|svg|webp)$/, type: 'asset/resource' },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name,
          filename: 'remoteEntry.js',
          exposes,
          shared: sharedSingletons(pkg),
          dts: false,
          manifest: false,
        }),
        new HtmlWebpackPlugin({
          template: path.join(dir, 'public', 'index.html'),
          title,
          chunks: ['main'],
          scriptLoading: 'defer',
        }),
        new (require('copy-webpack-plugin'))({
          patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html'] }, noErrorOnMissing: true }],
        }),
      ],
      performance: { hints: false },
      optimization: { moduleIds: 'deterministic', chunkIds: 'deterministic' },
      devServer: undefined,
      stats: production ? 'errors-warnings' : 'minimal',
      infrastructureLogging: { level: 'warn' },
      // The port is only informative here: serve-static.mjs serves dist/ on it.
      name: `${name}:${port}`,
    };
  };
}

module.exports = { createConfig, sharedSingletons };
