#!/usr/bin/env node
// A small production-like static server for a built front end: gzip/brotli (precompressed once,
// kept in memory), `immutable` for content-hashed files, `no-cache` for entries (index.html,
// remoteEntry.js, manifests, config.json), SPA fallback to index.html, CORS for remote chunks, and
// nginx-style server-side includes in HTML (`<!--# include virtual="/prefix/…" -->`, resolved
// against another server with --include /prefix/=http://host:port/; that server's own
// stylesheets, by plain relative paths under such a prefix, are passed through to browsers, and
// nothing else there, not the fragments themselves; /config.json is this server's own), and the security headers of scripts/csp.mjs (a Content-Security-Policy
// from config.json, nosniff, referrer policy), as deploy/nginx.conf does. Source maps are never
// served. With --site-api (the shell), what deploy/nginx.conf asks the API for too: a public part
// page (/parts/:id) with the part's own head (404 for an unknown part), /sitemap.xml,
// /sitemaps/<n>.xml and /robots.txt, sending SERVICE_TOKEN (from the environment) as
// X-Service-Token so the shop's own calls are not limited as anonymous.
// Usage: node scripts/serve-static.mjs <dir> <port> [--host <ip>] [--config <file.json>] [--no-spa]
//          [--include /prefix/=<origin>/ ...] [--site-api <api origin>]
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { inlineHashes, parseConfig, securityHeaders } from './csp.mjs';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};
const NGINX_GZIP_MIN_LENGTH = 20;
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt']);
// webpack's [contenthash] files: name.<hex>.js / <id>.<hex>.js
const HASHED = /\.[0-9a-f]{8,}\.(js|css|svg|png|jpg|webp|woff2)$/;

export function cacheControlFor(file) {
  return HASHED.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
}

const INCLUDE = /<!--# include virtual="([^"]+)" -->/g;
const HAS_INCLUDE = /<!--# include virtual=/;
const CONFIG_DIRECTIVE = /<!--# config [^>]*-->/g;
// A fetched fragment is reused for this long (by default).
const FRAGMENT_TTL_MS = 2000;
const FRAGMENT_TIMEOUT_MS = 1500;

/**
 * Server-side includes: fetches `virtual` paths from the servers they are mapped to. An include
 * that cannot be fetched (the other server is down, or has no such file) becomes empty, as with
 * deploy/nginx.conf, so the page still works without it.
 * @param {Record<string, string>} includes path prefix → base URL
 * @param {number} ttlMs how long a fetched fragment is reused
 * @param {(virtual: string) => Promise<string | undefined>} local this server's own answer for a
 *   path it serves itself (undefined: not one of them)
 */
function includeResolver(includes, ttlMs, local) {
  const fragments = new Map();
  async function fetchFragment(virtual) {
    const own = await local(virtual);
    if (own !== undefined) return own;
    const prefix = Object.keys(includes).find((p) => virtual.startsWith(p));
    if (!prefix) return '';
    const hit = fragments.get(virtual);
    if (hit && Date.now() - hit.at < ttlMs) return hit.body;
    let body = '';
    try {
      const res = await fetch(new URL(virtual.slice(prefix.length), includes[prefix]), {
        signal: AbortSignal.timeout(FRAGMENT_TIMEOUT_MS),
      });
      if (res.ok) body = await res.text();
      else await res.body?.cancel();
    } catch {
      // unreachable: the page goes out without it
    }
    fragments.set(virtual, { body, at: Date.now() });
    return body;
  }
  return async function resolve(html) {
    const virtuals = [...html.matchAll(INCLUDE)].map((m) => m[1]);
    const bodies = new Map(await Promise.all(virtuals.map(async (v) => [v, await fetchFragment(v)])));
    return html.replace(CONFIG_DIRECTIVE, '').replace(INCLUDE, (_, v) => bodies.get(v) ?? '');
  };
}

/** An entry (body, and its br and gzip forms when it has them) in the encoding the client takes. */
function send(req, res, entry, status, baseHeaders) {
  const accept = String(req.headers['accept-encoding'] ?? '');
  const headers = { ...baseHeaders, 'content-type': entry.type, vary: 'accept-encoding' };
  let body = entry.body;
  if (entry.br && /\bbr\b/.test(accept)) {
    body = entry.br;
    headers['content-encoding'] = 'br';
  } else if (entry.gz && /\bgzip\b/.test(accept)) {
    body = entry.gz;
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = body.length;
  res.writeHead(status, headers);
  res.end(req.method === 'HEAD' ? undefined : body);
}

async function compressed(body, ext) {
  const entry = { body };
  // From nginx's default gzip_min_length on (deploy/nginx.conf): the smallest chunks still shrink.
  if (COMPRESSIBLE.has(ext) && body.length >= NGINX_GZIP_MIN_LENGTH) {
    entry.br = await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } });
    entry.gz = await gzip(body, { level: 9 });
  }
  return entry;
}

// A plain relative path: file and folder names only, no scheme, host, `//`, `\`, `%`, `?` or `#`.
const RELATIVE_STYLESHEET = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_.-]+)*\.css$/;

/**
 * Where the stylesheet `rel` (the request's path after a fragment prefix, as sent: not decoded)
 * is on the remote at `base`, or null when it is anything but one of that remote's stylesheets:
 * a relative path of plain names without `.` or `..` segments, which, resolved against `base`,
 * stays on its origin, under its path, and names a `.css` file. So nothing else, and no other
 * host, is ever fetched through this server.
 */
export function fragmentStylesheetUrl(base, rel) {
  if (!RELATIVE_STYLESHEET.test(rel) || rel.split('/').some((s) => s === '.' || s === '..')) return null;
  const root = new URL(base);
  const url = new URL(rel, root);
  const same = url.origin === root.origin && url.pathname.startsWith(root.pathname);
  return same && !url.search && !url.hash && path.posix.extname(url.pathname) === '.css' ? url : null;
}

/** A stylesheet of an included fragment, fetched from its server as nginx's proxy_pass does. */
async function passThrough(url, req, res) {
  let upstream;
  try {
    // A redirect would lead elsewhere: it is an error here.
    upstream = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FRAGMENT_TIMEOUT_MS) });
  } catch {
    res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway');
    return;
  }
  const body = Buffer.from(await upstream.arrayBuffer());
  res.writeHead(upstream.status, {
    'content-type': upstream.headers.get('content-type') ?? TYPES['.css'],
    'cache-control': upstream.headers.get('cache-control') ?? 'no-cache',
    'x-content-type-options': 'nosniff',
    'content-length': body.length,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** A part page's path (the part's id as the API knows ids: anything else names no part). */
const PART_PAGE = /^\/parts\/([^/]+)$/;
const PART_ID = /^[0-9A-Za-z]{1,64}$/;
/** The API's answers the site passes on as they are: path here → path on the API. */
const SITE_FILES = /^\/(sitemap\.xml|sitemaps\/[1-9][0-9]{0,5}\.xml|robots\.txt)$/;
const SITE_API_TIMEOUT_MS = 2000;
/** Part pages composed recently, by their HTML: each compressed once while it is asked for. */
const COMPOSED_PAGES = 200;

export function createStaticServer({
  dir,
  configJson,
  spa = true,
  includes = {},
  fragmentTtlMs = FRAGMENT_TTL_MS,
  siteApi,
  serviceToken,
}) {
  const root = path.resolve(dir);
  const cache = new Map();
  // The page includes the site's config (the shell's first screen reads it without a request),
  // the same bytes as /config.json: the given one, else the file beside index.html, as nginx has.
  const resolveIncludes = includeResolver(includes, fragmentTtlMs, async (virtual) => {
    if (virtual !== '/config.json') return undefined;
    return configJson ?? (await readFile(path.join(root, 'config.json'), 'utf8').catch(() => ''));
  });
  const config = configJson ? parseConfig(configJson) : {};
  // Every answer carries the headers. The policy is the site's: its origins from config.json and
  // the hashes of index.html's inline elements (one policy per front end, as nginx is given).
  const baseHeaders = securityHeaders(config);
  let siteHeaders = baseHeaders;
  const indexFile = path.join(root, 'index.html');
  async function refreshSiteHeaders() {
    const info = await stat(indexFile).catch(() => null);
    siteHeaders = info ? (await load(indexFile, info.mtimeMs)).headers : baseHeaders;
  }
  const plain = (res, status, text) =>
    res
      .writeHead(status, {
        ...siteHeaders,
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-cache',
      })
      .end(text);

  // Keyed by path and mtime, so a rebuild is served at once without restarting the server.
  async function load(file, mtimeMs) {
    const hit = cache.get(file);
    if (hit && hit.mtimeMs === mtimeMs) return hit;
    const body = await readFile(file);
    const ext = path.extname(file);
    const text = ext === '.html' ? body.toString('utf8') : '';
    const meta = {
      mtimeMs,
      type: TYPES[ext] ?? 'application/octet-stream',
      headers: text ? securityHeaders(config, inlineHashes(text)) : null,
    };
    // A page with includes is only ever served composed (withIncludes), so it is compressed then.
    const entry = HAS_INCLUDE.test(text)
      ? { ...meta, template: text }
      : { ...meta, ...(await compressed(body, ext)) };
    cache.set(file, entry);
    return entry;
  }

  /** A GET of the API's site routes, as one of the shop's servers (never limited as anonymous). */
  async function fromSiteApi(apiPath) {
    try {
      return await fetch(new URL(apiPath, siteApi), {
        headers: serviceToken ? { 'x-service-token': serviceToken } : {},
        redirect: 'error',
        signal: AbortSignal.timeout(SITE_API_TIMEOUT_MS),
      });
    } catch {
      return null;
    }
  }

  const composedPages = new Map();
  /**
   * `/parts/:id`: part-top.html, the part's head from the API, part-bottom.html (as nginx's
   * addition module puts them together), or part-missing.html with a 404 for a part the API does
   * not know. Undefined (the app's page as usual) when the API could not say.
   */
  async function partPage(id) {
    let head = '';
    if (PART_ID.test(id)) {
      const res = await fromSiteApi(`/site/parts/${id}/head`);
      if (!res) return undefined;
      if (res.status === 200) head = await res.text();
      else {
        await res.body?.cancel();
        if (res.status !== 404) return undefined;
      }
    }
    const part = async (name) => {
      const file = path.join(root, name);
      const info = await stat(file).catch(() => null);
      return info && (await load(file, info.mtimeMs));
    };
    const [top, bottom, missing] = await Promise.all(
      ['part-top.html', 'part-bottom.html', 'part-missing.html'].map(part),
    );
    if (!top || !bottom || !missing) return undefined;
    const text = (entry) => entry.template ?? entry.body.toString('utf8');
    const html = await resolveIncludes(head ? text(top) + head + text(bottom) : text(missing));
    let entry = composedPages.get(html);
    if (entry) composedPages.delete(html);
    else entry = await compressed(Buffer.from(html), '.html');
    composedPages.set(html, entry);
    if (composedPages.size > COMPOSED_PAGES) composedPages.delete(composedPages.keys().next().value);
    return { ...entry, status: head ? 200 : 404, type: TYPES['.html'] };
  }

  /** The page with its includes resolved; compressed again only when an include changed. */
  async function withIncludes(entry) {
    const html = await resolveIncludes(entry.template);
    if (entry.composed?.html !== html) {
      entry.composed = { html, ...(await compressed(Buffer.from(html), '.html')) };
    }
    return entry.composed;
  }

  return createServer(async (req, res) => {
    try {
      await refreshSiteHeaders();
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { ...siteHeaders, allow: 'GET, HEAD' }).end();
        return;
      }
      const url = new URL(req.url ?? '/', 'http://x');
      let pathname;
      try {
        pathname = decodeURIComponent(url.pathname);
      } catch {
        pathname = null;
      }
      // The path as sent: before URL parsing has resolved any `..` or `%2e%2e` in it.
      const [sent = '', query] = (req.url ?? '').split('?');
      const prefix = Object.keys(includes).find((p) =>
        [sent, url.pathname, pathname ?? ''].some((s) => s.startsWith(p)),
      );
      if (prefix) {
        // The included fragments' stylesheets are public (this site's own pages link them, so no
        // cross-origin access is granted); the fragments are not.
        const target =
          sent.startsWith(prefix) && query === undefined
            ? fragmentStylesheetUrl(includes[prefix], sent.slice(prefix.length))
            : null;
        if (target) await passThrough(target, req, res);
        else plain(res, 404, 'Not found');
        return;
      }
      // The remotes' chunks are loaded by pages of other origins (the shell's).
      res.setHeader('access-control-allow-origin', '*');
      if (url.pathname === '/config.json' && configJson) {
        res.writeHead(200, { ...siteHeaders, 'content-type': TYPES['.json'], 'cache-control': 'no-cache' });
        res.end(req.method === 'HEAD' ? undefined : configJson);
        return;
      }
      if (pathname === null) {
        plain(res, 400, 'Bad request: malformed percent-escape in the path');
        return;
      }
      if (siteApi && SITE_FILES.test(url.pathname)) {
        const answer = await fromSiteApi(`/site${url.pathname}`);
        if (!answer) {
          plain(res, 502, 'Bad gateway');
          return;
        }
        const body = Buffer.from(await answer.arrayBuffer());
        res.writeHead(answer.status === 200 ? 200 : answer.status === 404 ? 404 : 502, {
          ...siteHeaders,
          'content-type':
            answer.status === 200 ? (answer.headers.get('content-type') ?? TYPES['.txt']) : TYPES['.txt'],
          'cache-control': answer.headers.get('cache-control') ?? 'no-cache',
          'content-length': answer.status === 200 ? body.length : 0,
        });
        res.end(req.method === 'HEAD' || answer.status !== 200 ? undefined : body);
        return;
      }
      const partMatch = siteApi ? PART_PAGE.exec(pathname) : null;
      const page = partMatch ? await partPage(partMatch[1] ?? '') : undefined;
      if (page) {
        send(req, res, page, page.status, { ...siteHeaders, 'cache-control': 'no-cache' });
        return;
      }
      // Source maps stay on the build machine (hidden-source-map): they hold the full sources.
      if (pathname.endsWith('.map') || pathname.includes('\0')) {
        plain(res, 404, 'Not found');
        return;
      }
      let file = path.join(root, pathname);
      // With the separator: a sibling folder such as `dist-old` must not pass for `dist`.
      if (file !== root && !file.startsWith(root + path.sep)) {
        plain(res, 404, 'Not found');
        return;
      }
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        file = path.join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info) {
        // Client-side routes get the app; missing assets get an honest 404.
        if (spa && !path.extname(url.pathname)) {
          file = path.join(root, 'index.html');
          info = await stat(file).catch(() => null);
        }
        if (!info) {
          plain(res, 404, 'Not found');
          return;
        }
      }
      const loaded = await load(file, info.mtimeMs);
      const entry = loaded.template ? { ...loaded, ...(await withIncludes(loaded)) } : loaded;
      send(req, res, entry, 200, {
        ...(entry.headers ?? siteHeaders),
        'cache-control': cacheControlFor(file),
      });
    } catch (err) {
      if (!res.headersSent) plain(res, 500, 'Internal error');
      else res.destroy();
      console.error(err);
    }
  });
}

const isMain =
  process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const [dir, portArg, ...rest] = process.argv.slice(2);
  if (!dir || !portArg) {
    console.error(
      'usage: serve-static.mjs <dir> <port> [--host <ip>] [--config <file.json>] [--no-spa] [--include /prefix/=<origin>/] [--site-api <origin>]',
    );
    process.exit(2);
  }
  const hostIdx = rest.indexOf('--host');
  // Loopback by default: this serves a development stack; put a real server in front to publish.
  const host = hostIdx >= 0 ? rest[hostIdx + 1] : '127.0.0.1';
  const configIdx = rest.indexOf('--config');
  const configJson = configIdx >= 0 ? await readFile(rest[configIdx + 1], 'utf8') : undefined;
  const includes = Object.fromEntries(
    rest.flatMap((arg, i) => (rest[i - 1] === '--include' ? [arg.split(/=(.*)/s).slice(0, 2)] : [])),
  );
  const port = Number(portArg);
  const siteApiIdx = rest.indexOf('--site-api');
  const server = createStaticServer({
    dir,
    configJson,
    spa: !rest.includes('--no-spa'),
    includes,
    siteApi: siteApiIdx >= 0 ? rest[siteApiIdx + 1] : undefined,
    serviceToken: process.env.SERVICE_TOKEN,
  });
  server.on('error', (err) => {
    console.error(err.code === 'EADDRINUSE' ? `Port ${port} is already in use.` : err.message);
    process.exit(1);
  });
  server.listen(port, host, () => console.log(`serving ${dir} on http://${host}:${port}`));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
}
