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
 * @property {{ from: string, names: true | string[] }} [ownCopy] the names a remote may take from
 *   its own copy of the package (`from`, bundled into the remote, never shared) when the shell it
 *   runs in does not offer them: every name (`true`) of a package whose copies share no state,
 *   or the listed ones. own-copy.cjs; docs/build.md, "A name the shell does not offer".
 */

/** react-router's pure path helpers: no router context, so a second copy of them is harmless. */
const ROUTER_PATH_HELPERS = [
  'createPath',
  'createSearchParams',
  'generatePath',
  'matchPath',
  'matchRoutes',
  'parsePath',
  'resolvePath',
];

// Shared modules are never tree-shaken (whichever container provides one must carry every name
// any consumer might import), so these export short agreed lists. In the shell-hosted site the
// shell's copy is the one every remote uses. A remote that needs a name the deployed shell does not
// offer takes it from its own copy where that is safe (`ownCopy`: Redux Toolkit's functions,
// react-router's path helpers); anything else (a router hook, RTK Query's React API, whose
// `skipToken` and hooks must be the page's one copy) is released shell first (docs/build.md).
const ROUTER_REAL = pkgFile('react-router', 'dist/production/index.mjs');
const TOOLKIT_REAL = pkgFile('@reduxjs/toolkit', 'dist/redux-toolkit.modern.mjs');
/** @type {Record<string, SlimEntry>} */
const SLIM = {
  // The production build: the package's export map only offers dist/development to bundlers.
  'react-router': {
    entry: path.join(SLIM_DIR, 'react-router.mjs'),
    real: ROUTER_REAL,
    ownCopy: { from: ROUTER_REAL, names: ROUTER_PATH_HELPERS },
  },
  // react-router-dom v7 re-exports react-router's names: its own copy is react-router's.
  'react-router-dom': {
    entry: path.join(SLIM_DIR, 'react-router-dom.mjs'),
    ownCopy: { from: ROUTER_REAL, names: ROUTER_PATH_HELPERS },
  },
  // Stores, slices, selectors and actions made with one copy work with another's: no state of
  // the library's own is shared between them (the page's one store comes from the shared kit).
  '@reduxjs/toolkit': {
    entry: path.join(SLIM_DIR, 'redux-toolkit.mjs'),
    real: TOOLKIT_REAL,
    ownCopy: { from: TOOLKIT_REAL, names: true },
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
