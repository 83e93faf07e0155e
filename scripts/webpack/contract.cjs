// @ts-check
// The shell's shared contract: the package and version of every singleton it provides at runtime,
// and the names each slim entry offers. The shell's build publishes it beside index.html
// (shared-contract.json); the repo keeps a copy (shell/shared-contract.json) for local builds.
// A remote's build reads it and fails when the shell could not run the remote (docs/build.md,
// "Version guard").
const fs = require('node:fs');
const path = require('node:path');
const { satisfy } = require('@module-federation/enhanced/runtime');
const { ROOT, installedVersion, packageOf, sharedSingletons } = require('./shared.cjs');
const { describeOwnCopies, ownCopyImports } = require('./own-copy.cjs');
const { mayUseOwnCopy, moduleLinks, offeredNames, sourceFilesOf } = require('./slim-check.cjs');

/** The copy of the shell's contract that local builds of a remote check against. */
const REPO_CONTRACT = path.join(ROOT, 'shell', 'shared-contract.json');
const CONTRACT_FILE = 'shared-contract.json';

/**
 * @typedef {object} SharedContract
 * @property {Record<string, { package: string, version: string }>} shared share key → what the
 *   shell provides under it
 * @property {Record<string, string[]>} slim share key → the names its slim entry offers
 */

/** The contract of the shell as this checkout would build it. @returns {SharedContract} */
function shellContract() {
  const shellPkg = require(path.join(ROOT, 'shell', 'package.json'));
  const keys = Object.keys(sharedSingletons(shellPkg)).sort();
  return {
    shared: Object.fromEntries(
      keys.map((key) => [key, { package: packageOf(key), version: installedVersion(packageOf(key)) }]),
    ),
    slim: Object.fromEntries(
      [...offeredNames()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, { names }]) => [key, [...names].sort()]),
    ),
  };
}

/**
 * Reads the contract a remote is built against: SHELL_CONTRACT (a file, or the URL of a deployed
 * shell's shared-contract.json), else the repo's copy.
 * @param {string | undefined} from
 * @returns {Promise<{ contract: SharedContract, where: string }>}
 */
async function readContract(from = process.env.SHELL_CONTRACT) {
  const where = from || path.relative(ROOT, REPO_CONTRACT);
  if (from && /^https?:\/\//.test(from)) {
    const res = await fetch(from);
    if (!res.ok)
      throw new Error(`The shell's shared contract could not be read from ${from}: HTTP ${res.status}`);
    return { contract: /** @type {SharedContract} */ (await res.json()), where };
  }
  const file = from ? path.resolve(from) : REPO_CONTRACT;
  return { contract: JSON.parse(fs.readFileSync(file, 'utf8')), where };
}

/**
 * One line per requirement of a remote that the contract does not meet: a shared version range
 * the shell's copy does not satisfy, or a slimmed name its entry does not offer and that may not
 * come from the remote's own copy (own-copy.cjs). A share key the contract does not list is fine:
 * the remote then runs on its own copy.
 * @param {{ dir: string, pkg: { name?: string, dependencies: Record<string, string> } }} remote
 * @param {SharedContract} contract
 * @returns {string[]}
 */
function unmetRequirements({ dir, pkg }, contract) {
  const problems = [];
  for (const [key, config] of Object.entries(sharedSingletons(pkg))) {
    const offered = contract.shared[key];
    const range = config.requiredVersion;
    if (!offered || typeof range !== 'string') continue;
    if (!satisfy(offered.version, range)) {
      problems.push(
        `${key}: requires ${offered.package} ${range}, the shell shares ${offered.package} ${offered.version}`,
      );
    }
  }
  for (const file of sourceFilesOf(dir)) {
    for (const { from, name } of moduleLinks(file).named) {
      const names = contract.slim[from];
      if (names && !names.includes(name) && !mayUseOwnCopy(from, name)) {
        problems.push(
          `${path.relative(dir, file)}: '${name}' from '${from}' is not offered by the shell's slim entry ` +
            '(release the shell with it first)',
        );
      }
    }
  }
  return problems;
}

/**
 * Throws, naming each package and both versions, when the shell could not run this remote.
 * Otherwise returns the imports the remote takes from its own copy (own-copy.cjs), and says so.
 * @param {{ dir: string, name: string, pkg: { dependencies: Record<string, string> } }} remote
 * @param {string} [from] the contract's file or URL (default: SHELL_CONTRACT, else the repo's)
 * @returns {Promise<import('./own-copy.cjs').OwnCopyImport[]>}
 */
async function checkRemoteContract(remote, from) {
  const { contract, where } = await readContract(from);
  const problems = unmetRequirements(remote, contract);
  if (problems.length > 0) {
    throw new Error(
      `The ${remote.name} remote cannot run in the shell described by ${where}:\n  ${problems.join('\n  ')}\n` +
        'Change the requirement, or release a shell that meets it first (docs/build.md, "Version guard").',
    );
  }
  const own = ownCopyImports(remote.dir, contract);
  if (own.length > 0) {
    console.log(
      `The ${remote.name} remote takes from its own copy what the shell described by ${where} does not offer:\n  ` +
        describeOwnCopies(own).join('\n  '),
    );
  }
  return own;
}

/**
 * Emits the contract into the shell's build output.
 * @type {import('webpack').WebpackPluginInstance}
 */
const emitContract = {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('SharedContract', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'SharedContract', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () =>
          compilation.emitAsset(
            CONTRACT_FILE,
            new sources.RawSource(`${JSON.stringify(shellContract(), null, 2)}\n`),
          ),
      );
    });
  },
};

// `node scripts/webpack/contract.cjs` rewrites the repo's copy (after a shared package's upgrade
// or a new slim name; a unit test fails while it is stale).
if (require.main === module) {
  fs.writeFileSync(REPO_CONTRACT, `${JSON.stringify(shellContract(), null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, REPO_CONTRACT)}`);
}

module.exports = {
  CONTRACT_FILE,
  REPO_CONTRACT,
  checkRemoteContract,
  emitContract,
  readContract,
  shellContract,
  unmetRequirements,
};
