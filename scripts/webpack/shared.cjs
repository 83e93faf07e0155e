// @ts-check
// The packages every front end shares as Module Federation singletons (one copy at runtime, so
// one React, one router context, one store), and the "slim" entries through which the heavy ones
// are provided. Why slim entries, who provides each singleton at runtime and how to release a
// new name: docs/build.md.
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');
const SLIM_DIR = path.join(__dirname, 'slim');

/** A file of an installed package (all of ours are hoisted to the root node_modules). */
const pkgFile = (/** @type {string} */ name, /** @type {string} */ file) =>
  path.join(ROOT, 'node_modules', name, file);

/** The package a share key belongs to: '@reduxjs/toolkit/query/react' → '@reduxjs/toolkit'. */
const packageOf = (/** @type {string} */ key) =>
  key
    .split('/')
    .slice(0, key.startsWith('@') ? 2 : 1)
    .join('/');

/** @param {string} name @returns {string} */
const installedVersion = (name) => require(pkgFile(name, 'package.json')).version;

/**
 * @typedef {object} SlimEntry
 * @property {string} entry the checked-in module the build provides under the share key; its
 *   exports are the names every front end may import (slim-check.cjs holds the build to them)
 * @property {string} [real] the file the entry's own import of its package stands for; without
 *   it, that import is consumed from the share scope like any other
 */

// Shared modules are never tree-shaken (whichever container provides one must carry every name
// any consumer might import), so these export short agreed lists. In the shell-hosted site the
// shell's copy is the one every remote uses: a new name is released shell first, then the remote
// that imports it (docs/build.md, "Releasing a new shared name").
/** @type {Record<string, SlimEntry>} */
const SLIM = {
  // The production build: the package's export map only offers dist/development to bundlers.
  'react-router': {
    entry: path.join(SLIM_DIR, 'react-router.mjs'),
    real: pkgFile('react-router', 'dist/production/index.mjs'),
  },
  'react-router-dom': { entry: path.join(SLIM_DIR, 'react-router-dom.mjs') },
  '@reduxjs/toolkit': {
    entry: path.join(SLIM_DIR, 'redux-toolkit.mjs'),
    real: pkgFile('@reduxjs/toolkit', 'dist/redux-toolkit.modern.mjs'),
  },
  '@reduxjs/toolkit/query/react': {
    entry: path.join(SLIM_DIR, 'rtk-query-react.mjs'),
    real: pkgFile('@reduxjs/toolkit', 'dist/query/react/rtk-query-react.modern.mjs'),
  },
  // The lazy facade: the library and its stylesheet load on the first toast.
  'react-toastify': { entry: path.join(ROOT, 'state', 'src', 'toast', 'lazy-toastify.tsx') },
};

/**
 * @typedef {import('@module-federation/enhanced').moduleFederationPlugin.SharedConfig} SharedConfig
 * @param {{ dependencies: Record<string, string> }} pkg the workspace's package.json
 * @returns {Record<string, SharedConfig>}
 */
function sharedSingletons(pkg) {
  const deps = pkg.dependencies;
  /** @param {string | undefined} range */
  const single = (range) => ({ singleton: true, requiredVersion: range });
  /** @param {keyof typeof SLIM} key @param {string | undefined} range */
  const slimmed = (key, range) => ({
    ...single(range),
    import: SLIM[key]?.entry,
    // The entry lives outside the package, so the version it provides must be stated.
    version: installedVersion(packageOf(key)),
  });
  return {
    react: single(deps.react),
    'react/jsx-runtime': single(deps.react),
    'react-dom': single(deps['react-dom']),
    'react-dom/client': single(deps['react-dom']),
    'react-router-dom': slimmed('react-router-dom', deps['react-router-dom']),
    // react-router-dom v7 re-exports react-router; share it too so there is one router context.
    'react-router': slimmed('react-router', `^${installedVersion('react-router')}`),
    'react-redux': single(deps['react-redux']),
    '@reduxjs/toolkit': slimmed('@reduxjs/toolkit', deps['@reduxjs/toolkit']),
    '@reduxjs/toolkit/query/react': slimmed('@reduxjs/toolkit/query/react', deps['@reduxjs/toolkit']),
    '@motoparts/state': single(deps['@motoparts/state']),
    // Its Redux-free half, which a first screen imports without loading Redux (state/src/frame.ts).
    '@motoparts/state/frame': single(deps['@motoparts/state']),
    '@motoparts/state/cart': single(deps['@motoparts/state']),
    'react-toastify': slimmed('react-toastify', deps['react-toastify']),
  };
}

/**
 * A slim entry imports its own package by name (so its names are type-checked against the
 * package), but under that name the share scope would hand it back itself: this sends exactly
 * that import to the real file. Every other import of the package still goes to the share scope.
 * @type {import('webpack').WebpackPluginInstance}
 */
const slimEntryImports = {
  apply(compiler) {
    /** @type {Map<string, { key: string, real: string }>} entry file → its own package */
    const byEntry = new Map();
    for (const [key, { entry, real }] of Object.entries(SLIM)) if (real) byEntry.set(entry, { key, real });
    const keys = [...byEntry.values()].map(({ key }) => key.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
    new compiler.webpack.NormalModuleReplacementPlugin(new RegExp(`^(${keys.join('|')})$`), (data) => {
      const own = byEntry.get(data.contextInfo.issuer);
      if (own && data.request === own.key) data.request = own.real;
    }).apply(compiler);
  },
};

module.exports = {
  ROOT,
  SLIM,
  SLIM_DIR,
  installedVersion,
  packageOf,
  pkgFile,
  sharedSingletons,
  slimEntryImports,
};
