// @ts-check
// What a development build adds to config.cjs's configuration, for a team's dev loop
// (docs/build.md, "A team's dev loop"): the shell's development build hooks one React Refresh
// runtime into React DOM before React DOM starts, and a remote served by webpack-dev-server
// (`webpack serve`) takes Fast Refresh through that runtime, so an edit shows in the shell's page
// with component state kept. Required only for development builds: a production build loads none
// of these packages, and nothing of them is in its output.
const path = require('node:path');

/** @typedef {import('webpack').Configuration} Configuration */
/** @typedef {Configuration & { devServer: import('webpack-dev-server').Configuration }} ServedConfiguration */

const REFRESH_RUNTIME = path.join(__dirname, 'refresh-runtime.cjs');

/** Resolves `react-refresh/runtime` to the page's one instance (refresh-runtime.cjs says why). */
const oneRefreshRuntime = { 'react-refresh/runtime$': REFRESH_RUNTIME };

/**
 * The shell's development build: the runtime is hooked in first, before the app's code (and the
 * shared React DOM with it) loads. Nothing else changes: the shell itself is not hot-updated.
 * @param {Configuration} config
 * @returns {Configuration}
 */
function refreshHost(config) {
  const entry = /** @type {string} */ (config.entry);
  return {
    ...config,
    entry: [REFRESH_RUNTIME, entry],
    resolve: { ...config.resolve, alias: { ...config.resolve?.alias, ...oneRefreshRuntime } },
  };
}

/** ts-loader's transformers that register each component with React Refresh. */
function refreshTransformers() {
  // Its CommonJS entry exports the transformer itself; the declarations describe the ES module.
  const refresh = /** @type {typeof import('react-refresh-typescript').default} */ (
    /** @type {unknown} */ (require('react-refresh-typescript'))
  );
  return { before: [refresh()] };
}

/**
 * A remote's federated build as webpack-dev-server serves it: hot updates, React Refresh through
 * the shell's runtime, and the dev server on the remote's own port.
 * @param {Configuration} config the remote's development build (kind 'remote')
 * @param {{ name: string, port: number }} o the container name, and its port
 * @returns {ServedConfiguration}
 */
function devServed(config, { name, port }) {
  const ReactRefreshPlugin = require('@pmmmwh/react-refresh-webpack-plugin');
  const host = process.env['PUBLIC_HOST'] ?? 'localhost';
  const rules = (config.module?.rules ?? []).map((rule) =>
    rule && typeof rule === 'object' && rule.loader === 'ts-loader'
      ? {
          ...rule,
          options: {
            .../** @type {Record<string, unknown>} */ (rule.options),
            getCustomTransformers: refreshTransformers,
          },
        }
      : rule,
  );
  return {
    ...config,
    module: { ...config.module, rules },
    resolve: { ...config.resolve, alias: { ...config.resolve?.alias, ...oneRefreshRuntime } },
    plugins: [
      ...(config.plugins ?? []),
      // No overlay: the shell's page allows no inline frames or styles from the remote; build
      // errors show in the dev server's terminal.
      new ReactRefreshPlugin({ overlay: false, exclude: [/node_modules/, REFRESH_RUNTIME] }),
    ],
    devServer: {
      port: Number(process.env[`PORT_${name.toUpperCase()}`] ?? port),
      host: '127.0.0.1',
      hot: true,
      // An update that React Refresh cannot apply (a change outside components) reloads the page.
      liveReload: false,
      static: false,
      // The shell's page, on another origin, asks for the hot updates' manifest with fetch().
      headers: { 'Access-Control-Allow-Origin': '*' },
      client: {
        overlay: false,
        logging: 'warn',
        // This server's host, not the page's (the client runs inside the shell's page); the port
        // is the server's own, as given here or by `--port`.
        webSocketURL: { hostname: host },
      },
    },
  };
}

module.exports = { devServed, refreshHost };
