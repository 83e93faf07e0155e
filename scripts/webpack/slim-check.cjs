// @ts-check
// Fails the build when code imports a name that a slim shared entry (shared.cjs) does not offer:
// the name would be `undefined` at runtime, in every container that takes the singleton from a
// provider without it. Sources are read with TypeScript's own parser, so TSX, `import type` and
// `import { type X }` are understood as the compiler understands them.
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { ROOT, SLIM, pkgFile } = require('./shared.cjs');

/** Where the front ends' code lives (the shared kit included); tests are not bundled. */
const FRONT_END_SOURCES = ['shell', 'storefront-mfe', 'auth-mfe', 'dashboard-mfe', 'state'];
/**
 * The remotes' folders: a name their entry does not offer may come from the remote's own copy
 * (SLIM's `ownCopy`, own-copy.cjs). The shell and the shared kit provide the entries: for them a
 * missing name is always added to the entry.
 */
const REMOTE_SOURCES = ['storefront-mfe', 'auth-mfe', 'dashboard-mfe'].map(
  (ws) => path.join(ROOT, ws) + path.sep,
);

/** Whether `name` of the slimmed share key `key` may come from a remote's own copy. */
function mayUseOwnCopy(/** @type {string} */ key, /** @type {string} */ name) {
  const own = SLIM[key]?.ownCopy;
  return own !== undefined && (own.names === true || own.names.includes(name));
}

/** Package files bundled behind a slim entry that import another shared name (consumed too). */
const PACKAGE_FILES = [
  pkgFile('@reduxjs/toolkit', 'dist/query/rtk-query.modern.mjs'),
  pkgFile('@reduxjs/toolkit', 'dist/query/react/rtk-query-react.modern.mjs'),
];

/**
 * @typedef {object} ModuleLinks
 * @property {{ from: string, name: string }[]} named value names taken from a module (`a as b` → a)
 * @property {{ from: string, how: string }[]} whole default, namespace and `export *` uses of a module
 * @property {string[]} exported the value names the module exports
 */

/** What a module imports and exports (values only), from its text. @returns {ModuleLinks} */
function moduleLinks(/** @type {string} */ file, text = fs.readFileSync(file, 'utf8')) {
  const kind = /\.tsx$/.test(file)
    ? ts.ScriptKind.TSX
    : /\.ts$/.test(file)
      ? ts.ScriptKind.TS
      : ts.ScriptKind.JS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  /** @type {ModuleLinks} */
  const links = { named: [], whole: [], exported: [] };
  for (const node of source.statements) {
    const from =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : undefined;
    if (ts.isImportDeclaration(node) && from) {
      const clause = node.importClause;
      if (!clause || clause.isTypeOnly) continue;
      if (clause.name) links.whole.push({ from, how: `import ${clause.name.text}` });
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        links.whole.push({ from, how: `import * as ${bindings.name.text}` });
      } else if (bindings) {
        for (const el of bindings.elements) {
          if (!el.isTypeOnly) links.named.push({ from, name: (el.propertyName ?? el.name).text });
        }
      }
    } else if (ts.isExportDeclaration(node) && !node.isTypeOnly) {
      const clause = node.exportClause;
      if (!clause || ts.isNamespaceExport(clause)) {
        if (from) links.whole.push({ from, how: clause ? `export * as ${clause.name.text}` : 'export *' });
        if (clause) links.exported.push(clause.name.text);
        continue;
      }
      for (const el of clause.elements) {
        if (el.isTypeOnly) continue;
        if (from) links.named.push({ from, name: (el.propertyName ?? el.name).text });
        links.exported.push(el.name.text);
      }
    } else if (
      ts.canHaveModifiers(node) &&
      ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    ) {
      const isDefault = ts.getModifiers(node)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
      if (ts.isVariableStatement(node)) {
        for (const d of node.declarationList.declarations)
          if (ts.isIdentifier(d.name)) links.exported.push(d.name.text);
      } else if (ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) {
        if (isDefault) links.exported.push('default');
        else if (node.name) links.exported.push(node.name.text);
      }
    }
  }
  return links;
}

/** Per share key, its slim entry and the names it offers. */
function offeredNames() {
  return new Map(
    Object.entries(SLIM).map(([key, { entry }]) => [
      key,
      { entry, names: new Set(moduleLinks(entry).exported) },
    ]),
  );
}

/** Every file of a folder, recursively. @param {string} dir @returns {string[]} */
const filesUnder = (dir) =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f))
    : [];

/**
 * A workspace's bundled sources (its src/, without tests; only the path inside src/ is looked at,
 * so a fixture workspace under a tests folder has sources too). @param {string} dir
 */
const sourceFilesOf = (dir) => {
  const src = path.join(dir, 'src');
  return filesUnder(src).filter(
    (f) => /\.(tsx?|mjs|js)$/.test(f) && !/__tests__|\.test\./.test(path.relative(src, f)),
  );
};

/**
 * The front ends' bundled sources (no tests), the slim entries (react-router-dom's takes its
 * names from the shared react-router) and the package files that import shared names.
 */
function checkedFiles() {
  const sources = FRONT_END_SOURCES.flatMap((ws) => sourceFilesOf(path.join(ROOT, ws)));
  return [...new Set([...sources, ...Object.values(SLIM).map(({ entry }) => entry), ...PACKAGE_FILES])];
}

/**
 * One line per import the slim entries cannot satisfy, naming the file, the name and where to add
 * it. A slim entry's import of its own package is not one: that import is the real package.
 * @param {string[]} files
 * @param {Map<string, { entry: string, names: Set<string> }>} offered
 */
function uncoveredImports(files, offered) {
  const problems = [];
  for (const file of files) {
    const where = path.relative(ROOT, file);
    const links = moduleLinks(file);
    const remote = REMOTE_SOURCES.some((dir) => file.startsWith(dir));
    for (const { from, name } of links.named) {
      const slim = offered.get(from);
      if (slim && slim.entry !== file && !slim.names.has(name) && !(remote && mayUseOwnCopy(from, name))) {
        problems.push(`${where}: '${name}' from '${from}' (add it to ${path.relative(ROOT, slim.entry)})`);
      }
    }
    for (const { from, how } of links.whole) {
      const slim = offered.get(from);
      if (slim && slim.entry !== file)
        problems.push(`${where}: ${how} from '${from}' (import the names you use instead)`);
    }
  }
  return problems;
}

/** Throws, naming every offending file and name, when an import is not covered. */
function checkSlimCoverage(files = checkedFiles()) {
  const problems = uncoveredImports(files, offeredNames());
  if (problems.length > 0) {
    throw new Error(
      'These imports are not offered by the shared slim entries, so they would be undefined at ' +
        `runtime:\n  ${problems.join('\n  ')}\nHow to add a shared name and release it: docs/build.md.`,
    );
  }
}

module.exports = { checkSlimCoverage, checkedFiles, mayUseOwnCopy, moduleLinks, offeredNames, sourceFilesOf };
