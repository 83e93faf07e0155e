// @ts-check
// The Module Federation plugin for each kind of build (docs/build.md, "Three kinds of build").
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedSingletons } = require('./shared.cjs');

/** @typedef {'shell' | 'remote' | 'standalone'} BuildKind */

const INJECT_EXTERNAL_RUNTIME_ESM = require
  .resolve('@module-federation/inject-external-runtime-core-plugin')
  .replace(/index\.cjs$/, 'index.js');

/**
 * The federation runtime (~16 KB gzip) is the biggest fixed cost of every entry, so only the
 * shell carries it: remoteEntry.js files take the shell's copy (experiments.externalRuntime ↔
 * the runtime plugin below). A remote's standalone page has no shell, so it is a second
 * compilation of the same remote (an MF host without exposes) that bundles its own runtime; only
 * the federated build is ever loaded by the shell.
 *
 * @param {{ name: string, exposes: Record<string, string>, pkg: { dependencies: Record<string, string> } }} o
 * @param {BuildKind} kind
 */
function federation({ name, exposes, pkg }, kind) {
  return new ModuleFederationPlugin({
    name,
    filename: 'remoteEntry.js',
    exposes: kind === 'remote' ? exposes : {},
    shared: sharedSingletons(pkg),
    // The shell's copies, registered first, stay the ones every remote uses, even when the shell
    // loads a package only after a remote has registered its own (the store, after the home
    // page's first screen). With the default, a later registration of the same version could take
    // the slot, and sharing would fetch every remote's remoteEntry.js to compare versions.
    shareStrategy: 'loaded-first',
    dts: false,
    manifest: false,
    // The shell hands its runtime to every remote (globalThis._FEDERATION_RUNTIME_CORE). This is
    // what experiments.provideExternalRuntime adds, but that adds the plugin's CommonJS build,
    // which drags a second (CJS) copy of runtime-core + sdk into the shell (+22 KB gzip); the ESM
    // build shares the copy webpack-bundler-runtime already uses.
    runtimePlugins: kind === 'shell' ? [INJECT_EXTERNAL_RUNTIME_ESM] : [],
    experiments: {
      externalRuntime: kind === 'remote',
      optimization: {
        // Leaner runtime in every entry: no snapshot/manifest plugin, no Node code paths.
        disableSnapshot: true,
        target: 'web',
        // Only the shell loads remotes (remotes embed each other through the shell's loader,
        // see state/src/remote-loader.ts), so the others drop the remote-loading code.
        disableRemote: kind !== 'shell',
      },
    },
  });
}

module.exports = { federation };
