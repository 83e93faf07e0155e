// @ts-check
// A remote that imports a shared name the shell it runs in does not offer takes that name from its
// own copy of the package, where that is safe: the slim entry's `ownCopy` (shared.cjs) says which
// names of a package may run as a second copy beside the shell's (Redux Toolkit's functions,
// react-router's path helpers). The import is rewritten, in the remote's sources only, to the
// package's file itself, which webpack bundles into the remote like any unshared module (and
// tree-shakes to the names used); the share scope, and so the page's one React, router and store,
// is not involved. docs/build.md, "A name the shell does not offer".
const path = require('node:path');
const { SLIM } = require('./shared.cjs');
const { mayUseOwnCopy, moduleLinks, offeredNames, sourceFilesOf } = require('./slim-check.cjs');

/**
 * @typedef {object} OwnCopyImport
 * @property {string} file the importing file, relative to the remote's folder
 * @property {string} from the share key imported from
 * @property {string} name the name
 */

/**
 * The imports of a remote's sources that take a name from the remote's own copy: each name a
 * slimmed package may offer from a second copy that either the shell's contract or this
 * checkout's slim entry (what the remote's own standalone page is served) does not offer.
 * @param {string} dir the remote's folder
 * @param {{ slim: Record<string, string[]> }} contract the shell's contract (contract.cjs)
 * @returns {OwnCopyImport[]}
 */
function ownCopyImports(dir, contract) {
  const here = offeredNames();
  /** @type {OwnCopyImport[]} */
  const found = [];
  for (const file of sourceFilesOf(dir)) {
    for (const { from, name } of moduleLinks(file).named) {
      const shell = contract.slim[from];
      const offered =
        (shell === undefined || shell.includes(name)) && (here.get(from)?.names.has(name) ?? true);
      if (!offered && mayUseOwnCopy(from, name)) found.push({ file: path.relative(dir, file), from, name });
    }
  }
  return found;
}

/**
 * What own-copy-loader.cjs rewrites: per share key, the file of its own copy and the names taken
 * from it.
 * @param {OwnCopyImport[]} imports
 * @returns {Record<string, { from: string, names: string[] }>}
 */
function ownCopyRewrites(imports) {
  /** @type {Record<string, { from: string, names: string[] }>} */
  const rewrites = {};
  for (const { from, name } of imports) {
    const own = SLIM[from]?.ownCopy;
    if (!own) continue;
    const entry = (rewrites[from] ??= { from: own.from, names: [] });
    if (!entry.names.includes(name)) entry.names.push(name);
  }
  return rewrites;
}

/** One line per import, for the build's output and `npm run compat`. */
const describeOwnCopies = (/** @type {OwnCopyImport[]} */ imports) =>
  imports.map(({ file, from, name }) => `${file}: '${name}' from '${from}'`);

module.exports = { describeOwnCopies, ownCopyImports, ownCopyRewrites };
