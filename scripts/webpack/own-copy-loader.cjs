// @ts-check
// Rewrites a remote's imports of shared names the shell does not offer to the remote's own copy of
// the package (own-copy.cjs): `import { createSlice, createEntityAdapter } from '@reduxjs/toolkit'`
// becomes `import { createSlice } from '@reduxjs/toolkit'` (the shared copy, as before) and
// `import { createEntityAdapter } from '<the package's file>'` (bundled into the remote, unshared).
// Runs on the TypeScript source, before ts-loader; re-exports (`export { … } from`) alike.
const ts = require('typescript');

/**
 * @typedef {{ rewrites: Record<string, { from: string, names: string[] }> }} Options
 * @this {import('webpack').LoaderContext<Options>}
 * @param {string} source
 * @returns {string}
 */
module.exports = function ownCopyLoader(source) {
  const { rewrites } = this.getOptions();
  if (!Object.keys(rewrites).some((key) => source.includes(key))) return source;
  const kind = /\.tsx$/.test(this.resourcePath) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(this.resourcePath, source, ts.ScriptTarget.Latest, true, kind);
  /** @type {[start: number, end: number, text: string][]} */
  const edits = [];
  for (const node of file.statements) {
    const specifier = /** @type {ts.ImportDeclaration | ts.ExportDeclaration} */ (node).moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    const rewrite = rewrites[specifier.text];
    if (!rewrite) continue;
    /** @type {string} */
    let head;
    /** @type {ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>} */
    let elements;
    let keep = '';
    if (ts.isImportDeclaration(node)) {
      const clause = node.importClause;
      if (!clause || clause.isTypeOnly || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings))
        continue;
      head = 'import';
      elements = clause.namedBindings.elements;
      keep = clause.name ? clause.name.text : '';
    } else if (
      ts.isExportDeclaration(node) &&
      !node.isTypeOnly &&
      node.exportClause &&
      ts.isNamedExports(node.exportClause)
    ) {
      head = 'export';
      elements = node.exportClause.elements;
    } else continue;
    /** @type {string[]} */
    const own = [];
    /** @type {string[]} */
    const shared = [];
    for (const el of elements) {
      const name = (el.propertyName ?? el.name).text;
      (!el.isTypeOnly && rewrite.names.includes(name) ? own : shared).push(el.getText(file));
    }
    if (own.length === 0) continue;
    const statements = [];
    const kept = [keep, shared.length > 0 ? `{ ${shared.join(', ')} }` : ''].filter(Boolean).join(', ');
    if (kept) statements.push(`${head} ${kept} from ${JSON.stringify(specifier.text)};`);
    statements.push(`${head} { ${own.join(', ')} } from ${JSON.stringify(rewrite.from)};`);
    // As many lines as the statement had, so the file's later lines keep their numbers.
    const lines = source.slice(node.getStart(file), node.getEnd()).split('\n').length - 1;
    edits.push([node.getStart(file), node.getEnd(), statements.join(' ') + '\n'.repeat(lines)]);
  }
  let out = source;
  for (const [start, end, text] of edits.reverse()) out = out.slice(0, start) + text + out.slice(end);
  return out;
};
