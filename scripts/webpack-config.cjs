// One webpack + Module Federation configuration for the shell and every remote, so the shared
// singletons and build settings cannot drift between teams. Each workspace's webpack.config.js
// calls it with its own name, port and exposed modules.
//
// Size budget (≤ 170 KB gzip of JS on a cold `/`): shared modules are never tree-shaken
// by Module Federation (whichever container provides one must carry every export any consumer
// might use), so the heavy shared packages are provided through small generated "slim" entry
// modules that re-export one agreed list of names (slimShared() below). Every build uses the same
// list, so whichever container ends up providing a singleton has everything every consumer needs,
// and webpack tree-shakes the real package behind the slim entry as for any normal import.
const fs = require('node:fs');
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { prerender } = require('./prerender.cjs');

const ROOT = path.join(__dirname, '..');
const rootPkg = (name) => require(path.join(ROOT, 'node_modules', name, 'package.json'));
const pkgFile = (name, file) => path.join(ROOT, 'node_modules', name, file);

// Declarative-router API (v7 "declarative mode": <BrowserRouter>, hooks). Data/framework-mode
// APIs (createBrowserRouter, loaders, RSC, sessions, cookies) are deliberately absent: they are
// most of react-router's 61 KB gzip. Need another export? Add it here and rebuild EVERY front
// end (the shell usually provides the singleton, so a remote alone cannot bring new names).
const ROUTER_EXPORTS = [
  'BrowserRouter',
  'HashRouter',
  'MemoryRouter',
  'Link',
  'NavLink',
  'Navigate',
  'Outlet',
  'Route',
  'Routes',
  'createSearchParams',
  'generatePath',
  'matchPath',
  'matchRoutes',
  'resolvePath',
  'useHref',
  'useInRouterContext',
  'useLinkClickHandler',
  'useLocation',
  'useMatch',
  'useNavigate',
  'useNavigationType',
  'useOutlet',
  'useOutletContext',
  'useParams',
  'useResolvedPath',
  'useRoutes',
  'useSearchParams',
];

/** Named imports of `from "<request>"` in an ES module's text (`a as b` → a; `type X` skipped). */
function namedImports(source, request) {
  const names = new Set();
  const esc = request.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const re = new RegExp(`import\\s+(?:type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"]${esc}['"]`, 'g');
  for (const m of source.matchAll(re)) {
    if (/^import\s+type\b/.test(m[0])) continue;
    for (const spec of m[1].split(',')) {
      const s = spec.trim();
      if (s && !s.startsWith('type ')) names.add(s.split(/\s+as\s+/)[0].trim());
    }
  }
  return names;
}

// What RTK Query's own files import from '@reduxjs/toolkit': that import is consumed from the
// share scope too, so the slim toolkit must carry these (read from the installed version).
const rtkQueryInternals = () =>
  ['dist/query/rtk-query.modern.mjs', 'dist/query/react/rtk-query-react.modern.mjs'].flatMap((f) => [
    ...namedImports(fs.readFileSync(pkgFile('@reduxjs/toolkit', f), 'utf8'), '@reduxjs/toolkit'),
  ]);

/**
 * The slim shared entries: share key → where the real code comes from and which names it offers.
 * `from` is a file path (bundled and tree-shaken) or another share key (consumed from the scope,
 * so react-router-dom and react-router stay one router context).
 */
function slimShared() {
  return {
    // The production build: the package's export map only offers dist/development to bundlers.
    'react-router': { from: pkgFile('react-router', 'dist/production/index.mjs'), names: ROUTER_EXPORTS },
    'react-router-dom': {
      from: 'react-router',
      names: ROUTER_EXPORTS,
      version: rootPkg('react-router-dom').version,
    },
    '@reduxjs/toolkit': {
      from: pkgFile('@reduxjs/toolkit', 'dist/redux-toolkit.modern.mjs'),
      names: [
        ...new Set([
          'combineSlices',
          'configureStore',
          'createAction',
          'createAsyncThunk',
          'createListenerMiddleware',
          'createReducer',
          'createSelector',
          'createSlice',
          'isAnyOf',
          'nanoid',
          ...rtkQueryInternals(),
        ]),
      ].sort(),
    },
    '@reduxjs/toolkit/query/react': {
      from: pkgFile('@reduxjs/toolkit', 'dist/query/react/rtk-query-react.modern.mjs'),
      names: ['createApi', 'fetchBaseQuery', 'retry', 'setupListeners', 'skipToken', 'QueryStatus'],
      version: rootPkg('@reduxjs/toolkit').version,
    },
    // Toasts are never part of the first paint: the facade loads the library (10 KB gzip) on the
    // first toast() call; <ToastContainer> renders nothing until then (react-toastify 11 queues
    // toasts emitted before a container mounts, so none is lost). The unstyled build: the
    // default one injects its CSS as a <style> element, which the Content-Security-Policy refuses.
    'react-toastify': {
      names: ['toast', 'ToastContainer'],
      text: lazyToastify(
        pkgFile('react-toastify', 'dist/unstyled.mjs'),
        pkgFile('react-toastify', 'dist/ReactToastify.css'),
      ),
    },
  };
}

/**
 * The lazy react-toastify facade (see slimShared). Same API for `toast` and `ToastContainer`.
 * Its stylesheet is adopted as a constructed sheet (not inline code for the CSP).
 */
function lazyToastify(real, css) {
  return `import { createElement, useEffect, useState } from 'react';

let lib;
let loading;
const waiting = new Set();
function adopt(text) {
  if (typeof document === 'undefined') return;
  if ('adoptedStyleSheets' in document) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  } else {
    const style = document.createElement('style');
    style.textContent = text;
    document.head.appendChild(style);
  }
}
function load() {
  loading ??= Promise.all([
    import(/* webpackChunkName: "react-toastify" */ ${JSON.stringify(real)}),
    import(/* webpackChunkName: "react-toastify" */ ${JSON.stringify(css)}),
  ]).then(([m, styles]) => {
    adopt(styles.default);
    lib = m;
    for (const notify of waiting) notify(m);
    waiting.clear();
    return m;
  });
  return loading;
}

let seq = 0;
/** toast() returns its id synchronously, so the facade picks it before the library is here. */
function emitter(method) {
  return (content, options) => {
    const opts = { ...options, toastId: options?.toastId ?? \`mp-toast-\${++seq}\` };
    const show = (m) => (method ? m.toast[method](content, opts) : m.toast(content, opts));
    if (lib) return show(lib);
    void load().then(show);
    return opts.toastId;
  };
}
/** Calls that only matter for toasts already shown: nothing to do before the first toast. */
function later(method) {
  return (...args) => {
    if (lib) return lib.toast[method](...args);
    if (loading) void loading.then((m) => m.toast[method](...args));
    return undefined;
  };
}

export const toast = Object.assign(emitter(), {
  success: emitter('success'),
  error: emitter('error'),
  info: emitter('info'),
  warning: emitter('warning'),
  warn: emitter('warn'),
  dark: emitter('dark'),
  loading: emitter('loading'),
  promise: (...args) => load().then((m) => m.toast.promise(...args)),
  dismiss: later('dismiss'),
  update: later('update'),
  done: later('done'),
  clearWaitingQueue: later('clearWaitingQueue'),
  play: later('play'),
  pause: later('pause'),
  isActive: (...args) => (lib ? lib.toast.isActive(...args) : false),
  onChange: (callback) => {
    if (lib) return lib.toast.onChange(callback);
    let off;
    let cancelled = false;
    void load().then((m) => {
      if (!cancelled) off = m.toast.onChange(callback);
    });
    return () => {
      cancelled = true;
      off?.();
    };
  },
});

export function ToastContainer(props) {
  const [m, setM] = useState(lib);
  useEffect(() => {
    if (m) return undefined;
    waiting.add(setM);
    return () => void waiting.delete(setM);
  }, [m]);
  return m ? createElement(m.ToastContainer, props) : null;
}
`;
}

const FRONT_END_SOURCES = ['shell', 'storefront-mfe', 'auth-mfe', 'dashboard-mfe', 'state'].map((ws) =>
  path.join(ROOT, ws, 'src'),
);

function* sourceFiles(dir) {
  if (!fs.existsSync(dir)) return;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* sourceFiles(p);
    else if (/\.(tsx?|mjs|js)$/.test(e.name)) yield p;
  }
}

/**
 * Fails the build when any front end imports a name the slim entries do not offer: it would be
 * `undefined` at runtime in whichever container did not provide it, so say so now.
 */
function checkSlimCoverage(slim) {
  const missing = [];
  for (const file of [...FRONT_END_SOURCES.flatMap((d) => [...sourceFiles(d)])]) {
    const text = fs.readFileSync(file, 'utf8');
    if (/__tests__|\.test\./.test(file)) continue;
    for (const [key, { names }] of Object.entries(slim)) {
      if (new RegExp(`import\\s+\\*\\s+as\\s+\\w+\\s+from\\s+['"]${key}['"]`).test(text)) {
        missing.push(`${path.relative(ROOT, file)}: import * from '${key}' (import named exports instead)`);
      }
      for (const n of namedImports(text, key)) {
        if (!names.includes(n)) missing.push(`${path.relative(ROOT, file)}: '${n}' from '${key}'`);
      }
    }
  }
  if (missing.length) {
    throw new Error(
      `These imports are not in the shared export lists of scripts/webpack-config.cjs (slimShared); ` +
        `add them there and rebuild every front end:\n  ${missing.join('\n  ')}`,
    );
  }
}

const SLIM_DIR = path.join(ROOT, 'node_modules', '.cache', 'motoparts-shared');

/** Writes the slim entry modules (only when their text changed, atomically: builds run in parallel). */
function writeSlimEntries(slim) {
  fs.mkdirSync(SLIM_DIR, { recursive: true });
  const files = {};
  for (const [key, entry] of Object.entries(slim)) {
    const text =
      `// Generated by scripts/webpack-config.cjs: the '${key}' this build provides to the share scope.\n` +
      (entry.text ?? `export { ${entry.names.join(', ')} } from ${JSON.stringify(entry.from)};\n`);
    const file = path.join(SLIM_DIR, `${key.replace(/[@/]/g, '_')}.mjs`);
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
      const tmp = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, text);
      fs.renameSync(tmp, file);
    }
    files[key] = file;
  }
  return files;
}

/** Shared singletons (docs/architecture.md): one copy of each at runtime, version ranges from package.json. */
function sharedSingletons(pkg) {
  const deps = pkg.dependencies;
  const single = (range) => ({ singleton: true, requiredVersion: range });
  const slim = slimShared();
  checkSlimCoverage(slim);
  const files = writeSlimEntries(slim);
  const slimmed = (key, range) => ({
    ...single(range),
    import: files[key],
    // The slim file lives outside the package, so the provided version must be stated.
    version: slim[key].version ?? rootPkg(key).version,
  });
  return {
    react: single(deps.react),
    'react/jsx-runtime': single(deps.react),
    'react-dom': single(deps['react-dom']),
    'react-dom/client': single(deps['react-dom']),
    'react-router-dom': slimmed('react-router-dom', deps['react-router-dom']),
    // react-router-dom v7 re-exports react-router; share it too so there is one router context.
    'react-router': slimmed('react-router', `^${rootPkg('react-router').version}`),
    'react-redux': single(deps['react-redux']),
    '@reduxjs/toolkit': slimmed('@reduxjs/toolkit', deps['@reduxjs/toolkit']),
    '@reduxjs/toolkit/query/react': slimmed('@reduxjs/toolkit/query/react', deps['@reduxjs/toolkit']),
    '@motoparts/state': single(deps['@motoparts/state']),
    'react-toastify': slimmed('react-toastify', deps['react-toastify']),
  };
}

/** @param {import('webpack').PathData} pathData */
function hashedWhenKnown(pathData) {
  return pathData.chunk && pathData.chunk.contentHash && pathData.chunk.contentHash.javascript
    ? '[name].[contenthash:10].js'
    : '[name].js';
}

const INJECT_EXTERNAL_RUNTIME_ESM = require
  .resolve('@module-federation/inject-external-runtime-core-plugin')
  .replace(/index\.cjs$/, 'index.js');

/**
 * Module Federation options per build kind. The federation runtime (~16 KB gzip) is the biggest
 * fixed cost of every entry, so only the shell carries it: remoteEntry.js files take the shell's
 * copy (experiments.externalRuntime ↔ provideExternalRuntime). A remote's standalone page has no
 * shell, so it is a second compilation of the same remote (an MF host without exposes) that
 * bundles its own runtime; only the federated build is ever loaded by the shell.
 *
 * @param {'shell' | 'remote' | 'standalone'} kind
 */
function federation({ name, exposes, pkg }, kind) {
  return new ModuleFederationPlugin({
    name,
    filename: 'remoteEntry.js',
    exposes: kind === 'remote' ? exposes : {},
    shared: sharedSingletons(pkg),
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

/**
 * Emits prerendered HTML fragments (asset path → module, see prerender.cjs) beside the build, e.g.
 * the storefront's dist/prerender/home.html that the shell's server includes in its index.html.
 */
class PrerenderPlugin {
  /** @param {Record<string, string>} pages */
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
            // A folder ('prerender/'): the module returns several files, name → content.
            const files = asset.endsWith('/')
              ? Object.entries(prerender(file)).map(([name, text]) => [asset + name, text])
              : [[asset, prerender(file)]];
            for (const [name, text] of files) compilation.emitAsset(name, new sources.RawSource(text));
          }
        },
      );
    });
  }
}

/**
 * @param {{ dir: string, name: string, port: number, exposes?: Record<string,string>, title: string,
 *   prerender?: Record<string, string>, firstScreen?: string }} o
 *   prerender: fragments a remote emits (asset path → module in dir; a path ending in `/` takes
 *   the module's { file name: content } object); firstScreen: a module whose
 *   default export returns { head, root }, the static first screen put into index.html.
 */
function createConfig({ dir, name, port, exposes = {}, title, prerender: pages = {}, firstScreen }) {
  const pkg = require(path.join(dir, 'package.json'));
  const isRemote = Object.keys(exposes).length > 0;

  /** @param {'shell' | 'remote' | 'standalone'} kind */
  const build = (kind, production) => ({
    context: dir,
    // The federated build of a remote has no page of its own: only the remoteEntry.js container.
    entry: kind === 'remote' ? {} : './src/index.ts',
    mode: production ? 'production' : 'development',
    // Production maps are written for error reports but not referenced from the bundles, and the
    // servers refuse to serve them (they hold the full sources). Development maps are inline:
    // eval-based ones would need 'unsafe-eval' in the Content-Security-Policy.
    devtool: production ? 'hidden-source-map' : 'inline-cheap-module-source-map',
    // Modern browsers only (ES2020: optional chaining, ??, async/await kept as is): drops the
    // ES5 helpers and arrow-function wrappers webpack would otherwise emit around every chunk.
    target: ['web', 'es2020'],
    output: {
      path: path.join(dir, 'dist'),
      // Chunks load from wherever this build's remoteEntry.js was served from.
      publicPath: 'auto',
      // A function because MF's runtime module asks for this template before chunk hashes exist
      // (only to learn the output folder); the real file names get the content hash.
      filename: production ? hashedWhenKnown : '[name].js',
      chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      // Both builds of a remote write into dist/: only the first one (standalone or shell) cleans
      // it, and only in production (in watch mode it would delete the other build's files).
      uniqueName: kind === 'standalone' ? `${name}_standalone` : name,
      clean: production && kind !== 'remote',
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
      federation({ name, exposes, pkg }, kind),
      ...(kind === 'remote' && Object.keys(pages).length > 0
        ? [
            new PrerenderPlugin(
              Object.fromEntries(Object.entries(pages).map(([asset, file]) => [asset, path.join(dir, file)])),
            ),
          ]
        : []),
      ...(kind === 'remote'
        ? []
        : [
            new HtmlWebpackPlugin({
              // One page template for every front end; a workspace may bring its own in public/.
              template: fs.existsSync(path.join(dir, 'public', 'index.html'))
                ? path.join(dir, 'public', 'index.html')
                : path.join(__dirname, 'index.html'),
              title,
              chunks: ['main'],
              scriptLoading: 'defer',
              // index.html answers every deep link (/purchase/:id, /dashboard/myOrder), so its
              // script URLs must be root-absolute; 'auto' would resolve them under the route.
              publicPath: '/',
              // Rendered again on every compilation, so a watching build picks up changes.
              templateParameters: (compilation, assets, assetTags, options) => ({
                compilation,
                webpackConfig: compilation.options,
                htmlWebpackPlugin: {
                  tags: assetTags,
                  files: assets,
                  options: {
                    ...options,
                    ...(firstScreen ? prerender(path.join(dir, firstScreen)) : { head: '', root: '' }),
                  },
                },
              }),
            }),
            new (require('copy-webpack-plugin'))({
              patterns: [
                { from: 'public', globOptions: { ignore: ['**/index.html'] }, noErrorOnMissing: true },
              ],
            }),
          ]),
    ],
    performance: { hints: false },
    optimization: {
      moduleIds: 'deterministic',
      chunkIds: 'deterministic',
      // terser: ES2020 output (shorter syntax), a second compress pass, no comments kept inline.
      minimizeOptions: {
        javascript: {
          ecma: 2020,
          module: false,
          compress: { passes: 2, ecma: 2020 },
          format: { comments: false },
        },
      },
    },
    devServer: undefined,
    stats: production ? 'errors-warnings' : 'minimal',
    infrastructureLogging: { level: 'warn' },
    // The port is only informative here: serve-static.mjs serves dist/ on it.
    name: `${name}${kind === 'remote' ? '-remote' : ''}:${port}`,
  });

  return (env, argv) => {
    const production = argv.mode !== 'development';
    if (!isRemote) return build('shell', production);
    // The federated build runs after the standalone one (which cleans dist/ first).
    const standalone = build('standalone', production);
    const remote = { ...build('remote', production), dependencies: [standalone.name] };
    return [standalone, remote];
  };
}

module.exports = { createConfig, sharedSingletons };
