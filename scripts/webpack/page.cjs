// @ts-check
// The HTML page of the shell and of each remote's standalone build, and the static files beside it.
const fs = require('node:fs');
const path = require('node:path');
const CopyPlugin = require('copy-webpack-plugin');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { prerender } = require('./prerender.cjs');

/** Around the template's default title and description: a part page's head goes there instead. */
const PAGE_HEAD = /<!--# page-head -->([\s\S]*?)<!--# \/page-head -->/;

/**
 * The head of a part page whose part does not exist (the servers answer it with a 404): kept out
 * of search results.
 * @param {string} title
 */
const missingPartHead = (title) =>
  '<meta name="robots" content="noindex"/>' +
  '<meta name="description" content="This part does not exist or is no longer sold."/>' +
  `<title>Part not found - ${title}</title>`;

/**
 * The public part pages (`/parts/:id`) of the shell's site: index.html with the part's own head
 * (from the API, `GET /site/parts/:id/head`) in place of the default title and description. The
 * servers put it together per request (deploy/nginx.conf with nginx's addition module,
 * scripts/serve-static.mjs likewise), from the two halves this writes around that place,
 * `part-top.html` and `part-bottom.html`, and answer an unknown part with `part-missing.html`
 * (404). Every index.html goes out without the markers (nginx would take them for directives).
 */
class PartPagesPlugin {
  /**
   * @param {string} title
   * @param {boolean} partPages whether to write the halves (the shell) or only drop the markers
   */
  constructor(title, partPages) {
    this.title = title;
    this.partPages = partPages;
  }

  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { RawSource } = compiler.webpack.sources;
    compiler.hooks.thisCompilation.tap('PartPagesPlugin', (compilation) => {
      HtmlWebpackPlugin.getCompilationHooks(compilation).beforeEmit.tap('PartPagesPlugin', (data) => {
        const match = PAGE_HEAD.exec(data.html);
        if (!match && !this.partPages) return data;
        if (!match) {
          throw new Error('the page template has no <!--# page-head --> … <!--# /page-head --> block');
        }
        const top = data.html.slice(0, match.index);
        const bottom = data.html.slice(match.index + match[0].length);
        if (this.partPages) {
          compilation.emitAsset('part-top.html', new RawSource(top));
          compilation.emitAsset('part-bottom.html', new RawSource(bottom));
          compilation.emitAsset(
            'part-missing.html',
            new RawSource(top + missingPartHead(this.title) + bottom),
          );
        }
        return { ...data, html: top + (match[1] ?? '') + bottom };
      });
    });
  }
}

/**
 * @param {{ dir: string, title: string, firstScreen?: string }} o firstScreen: a module in dir whose
 *   default export returns { head, root }, the static first screen put into index.html
 * @returns {import('webpack').WebpackPluginInstance[]}
 */
function pagePlugins({ dir, title, firstScreen }) {
  const own = path.join(dir, 'public', 'index.html');
  return [
    new HtmlWebpackPlugin({
      // One page template for every front end; a workspace may bring its own in public/.
      template: fs.existsSync(own) ? own : path.join(__dirname, 'index.html'),
      title,
      chunks: ['main'],
      scriptLoading: 'defer',
      // index.html answers every deep link (/purchase/:id, /dashboard/myOrder), so its script
      // URLs must be root-absolute; 'auto' would resolve them under the route.
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
            ...(firstScreen
              ? /** @type {{ head: string, root: string }} */ (prerender(path.join(dir, firstScreen)))
              : { head: '', root: '' }),
          },
        },
      }),
    }),
    new CopyPlugin({
      patterns: [{ from: 'public', globOptions: { ignore: ['**/index.html'] }, noErrorOnMissing: true }],
    }),
    // The shell's site (the one page with a first screen) has the public part pages.
    new PartPagesPlugin(title, Boolean(firstScreen)),
  ];
}

module.exports = { pagePlugins };
