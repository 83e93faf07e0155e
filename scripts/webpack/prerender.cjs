// @ts-check
// Build-time prerendering: runs one of our TypeScript/React modules in Node and returns what its
// default export returns (HTML rendered with react-dom/server, or an object of such strings), so
// a page's first screen is in the HTML and paints before any JavaScript arrives. Used for the
// shell's index.html (createConfig's `firstScreen`) and for fragments a remote emits beside its
// build (`prerender`, e.g. the storefront's dist/prerender/home.html).
//
// The module runs in a child process: the TypeScript loader below patches Node's module system
// (TS/TSX through SWC as in jest, CSS as text as webpack's asset/source does, @motoparts/*
// packages resolved to their sources), which must not leak into webpack's own process.
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');

/**
 * @template {string | Record<string, string>} T
 * @param {string} file absolute path of a module whose default export returns T
 * @returns {T}
 */
function prerender(file) {
  const out = execFileSync(process.execPath, [__filename, file], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return JSON.parse(out);
}

/** Emits prerendered fragments (asset path → module) beside the build. */
class PrerenderPlugin {
  /**
   * @param {Record<string, string>} pages asset path → absolute module path; a module returning
   *   { file name: content } emits its files under the asset path (a folder ending in `/`)
   */
  constructor(pages) {
    this.pages = pages;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrerenderPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'PrerenderPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          for (const [asset, file] of Object.entries(this.pages)) {
            const result = prerender(file);
            /** @type {[string, string][]} */
            const files =
              typeof result === 'string'
                ? [[asset, result]]
                : Object.entries(result).map(([name, text]) => [asset + name, text]);
            for (const [name, text] of files) compilation.emitAsset(name, new sources.RawSource(text));
          }
        },
      );
    });
  }
}

/**
 * The parts of Node's CommonJS loader this file patches (internal, hence not in @types/node).
 * @typedef {{ _compile(code: string, filename: string): void, exports: unknown }} LoadingModule
 * @typedef {{
 *   _extensions: Record<string, (module: LoadingModule, filename: string) => void>,
 *   _resolveFilename: (this: unknown, request: string, ...rest: unknown[]) => string,
 * }} ModuleInternals
 */

function registerTypeScript() {
  const loader = /** @type {ModuleInternals} */ (/** @type {unknown} */ (Module));
  const { transformSync } = require('@swc/core');
  /** @param {LoadingModule} module @param {string} filename */
  const compile = (module, filename) => {
    const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
      filename,
      jsc: {
        parser: { syntax: 'typescript', tsx: filename.endsWith('.tsx') },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    });
    module._compile(code, filename);
  };
  loader._extensions['.ts'] = compile;
  loader._extensions['.tsx'] = compile;
  loader._extensions['.css'] = (module, filename) => {
    module.exports = { __esModule: true, default: fs.readFileSync(filename, 'utf8') };
  };
  // Workspace packages publish their sources under the "source" export condition.
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function resolveSource(request, ...rest) {
    const m = /^@motoparts\/([^/]+)(\/.+)?$/.exec(request);
    if (m) {
      const dir = fs.realpathSync(path.join(ROOT, 'node_modules', '@motoparts', `${m[1]}`));
      const exported = require(path.join(dir, 'package.json')).exports?.[`.${m[2] ?? ''}`];
      if (exported?.source) return path.join(dir, exported.source);
    }
    return resolve.call(this, request, ...rest);
  };
}

if (require.main === module) {
  registerTypeScript();
  const file = `${process.argv[2]}`;
  const mod = require(path.resolve(file));
  const result = (mod.default ?? mod)();
  const parts = typeof result === 'string' ? [result] : Object.values(result ?? {});
  if (parts.length === 0 || parts.some((html) => typeof html !== 'string' || html.length === 0)) {
    throw new Error(`${file}: its default export returned no HTML`);
  }
  process.stdout.write(JSON.stringify(result));
}

module.exports = { PrerenderPlugin, prerender };
