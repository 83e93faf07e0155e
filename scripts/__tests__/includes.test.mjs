// The shell's index.html includes the remotes' prerendered first screens through server-side
// includes (<!--# include virtual="/_fragments/<remote>/…" -->: the storefront's, the
// dashboard's, the auth remote's). Two servers resolve them: the static server used by `npm start` and `npm test`,
// and nginx with deploy/nginx.conf in production. The same cases run against both, over real
// HTTP, with real upstreams standing in for the two remotes: `node --test scripts/__tests__`
// (nginx from Debian's package; .ci/run installs it).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createStaticServer } from '../serve-static.mjs';
import { close, freePort, listen, startNginx as startNginxOn } from './support/servers.mjs';

/** The site's config: served at /config.json and included in the page's head by both servers. */
const CONFIG_JSON = '{"apiBaseUrl":"https://api.shop.example/","remotes":{}}';
const configBlock = (json) => `<script type="application/json" id="site-config">${json}</script>`;
const PAGE =
  configBlock('<!--# include virtual="/config.json" -->') +
  '<main><!--# config errmsg="" --><!--# include virtual="/_fragments/storefront/prerender/home.html" -->' +
  '<!--# include virtual="/_fragments/dashboard/prerender/dashboard.html" -->' +
  '<!--# include virtual="/_fragments/auth/prerender/auth.html" --></main>';
/** The page as served, with this in its <main>. */
const served = (main) => `${configBlock(CONFIG_JSON)}<main>${main}</main>`;
/** What the stand-in dashboard and auth remote always answer for their fragments. */
const FRAME = '<nav>Frame</nav><form>Sign in</form>';

/** A stand-in storefront whose fragment answer each test sets. */
let fragment = { status: 200, body: '<h1>Hero v1</h1>' };
let upstream;
let upstreamUrl;
let dashboard;
let dashboardUrl;
let auth;
let authUrl;
before(async () => {
  auth = createServer((req, res) => {
    if (req.url === '/prerender/auth.html')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<form>Sign in</form>');
    if (req.url === '/prerender/first-screen.css') {
      return res.writeHead(200, { 'content-type': 'text/css' }).end('.auth-page{display:flex}');
    }
    res.writeHead(404).end('<html>not found</html>');
  });
  authUrl = `http://127.0.0.1:${await listen(auth)}/`;
  dashboard = createServer((req, res) => {
    if (req.url === '/prerender/dashboard.html')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<nav>Frame</nav>');
    res.writeHead(404).end('<html>not found</html>');
  });
  dashboardUrl = `http://127.0.0.1:${await listen(dashboard)}/`;
  upstream = createServer((req, res) => {
    if (req.url === '/prerender/hero.css') {
      return res.writeHead(200, { 'content-type': 'text/css' }).end('.hero{color:red}');
    }
    if (req.url !== '/prerender/home.html') return res.writeHead(404).end('<html>not found</html>');
    res.writeHead(fragment.status, { 'content-type': 'text/html' }).end(fragment.body);
  });
  upstreamUrl = `http://127.0.0.1:${await listen(upstream)}/`;
});
after(async () => {
  await close(upstream);
  await close(dashboard);
  await close(auth);
});

function siteDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'includes-'));
  chmodSync(dir, 0o755); // nginx's workers may run as another user
  writeFileSync(path.join(dir, 'index.html'), PAGE);
  writeFileSync(path.join(dir, 'config.json'), CONFIG_JSON);
  return dir;
}

/** serve-static.mjs, as scripts/stack.mjs starts it for the shell. */
async function startStaticServer(storefrontUrl) {
  const server = createStaticServer({
    dir: siteDir(),
    includes: {
      '/_fragments/storefront/': storefrontUrl,
      '/_fragments/dashboard/': dashboardUrl,
      '/_fragments/auth/': authUrl,
    },
    fragmentTtlMs: 0, // every request shows what the upstream answers now
  });
  const url = `http://127.0.0.1:${await listen(server)}`;
  return { url, stop: () => close(server) };
}

/** nginx with deploy/nginx.conf. */
const startNginx = (storefrontUrl) => startNginxOn({ root: siteDir(), storefrontUrl, dashboardUrl, authUrl });

for (const [name, start] of [
  ['serve-static.mjs', startStaticServer],
  ['nginx (deploy/nginx.conf)', startNginx],
]) {
  describe(name, () => {
    let server;
    let down;
    before(async () => {
      server = await start(upstreamUrl);
      // One more, its storefront pointed at a port nothing listens on: the storefront is down.
      down = await start(`http://127.0.0.1:${await freePort()}/`);
    });
    after(async () => {
      await server.stop();
      await down.stop();
    });
    const get = async (base, p = '/') => {
      const res = await fetch(base + p, { headers: { 'accept-encoding': 'gzip' } });
      return { status: res.status, body: (await res.text()).trim() };
    };

    test('includes each remote’s fragment into the page and every SPA fallback; no directive reaches the client', async () => {
      fragment = { status: 200, body: '<h1>Hero v1</h1>' };
      for (const p of ['/', '/index.html', '/blogs', '/purchase/123', '/dashboard', '/login']) {
        assert.deepEqual(
          await get(server.url, p),
          { status: 200, body: served(`<h1>Hero v1</h1>${FRAME}`) },
          p,
        );
      }
    });

    test('includes the site’s config, the same bytes as /config.json, even with a remote down', async () => {
      for (const base of [server.url, down.url]) {
        const page = (await get(base, '/purchase/123')).body;
        const block = /<script type="application\/json" id="site-config">([^<]*)<\/script>/.exec(page);
        assert.ok(block, page);
        assert.equal(block[1], (await get(base, '/config.json')).body);
        assert.deepEqual(JSON.parse(block[1]), JSON.parse(CONFIG_JSON));
      }
    });

    test('serves the storefront’s current fragment (a storefront deploy needs no shell build)', async () => {
      fragment = { status: 200, body: '<h1>Hero v2</h1>' };
      assert.equal((await get(server.url)).body, served(`<h1>Hero v2</h1>${FRAME}`));
    });

    test('a failing or missing fragment leaves the include empty, never an error page', async () => {
      fragment = { status: 503, body: '<html>upstream error</html>' };
      assert.deepEqual(await get(server.url), { status: 200, body: served(FRAME) });
      fragment = { status: 404, body: '<html>not found</html>' };
      assert.deepEqual(await get(server.url), { status: 200, body: served(FRAME) });
    });

    test('a storefront that is down leaves its include empty and the page served, the other remotes’ included', async () => {
      assert.deepEqual(await get(down.url), { status: 200, body: served(FRAME) });
    });

    test('the fragment path is not served to browsers by the shell', async () => {
      fragment = { status: 200, body: '<h1>Hero</h1>' };
      const res = await get(server.url, '/_fragments/storefront/prerender/home.html');
      assert.notEqual(res.body, '<h1>Hero</h1>');
    });

    test('the stylesheet a fragment links is passed through from the storefront', async () => {
      const res = await fetch(`${server.url}/_fragments/storefront/prerender/hero.css`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type'), /^text\/css/);
      assert.equal(await res.text(), '.hero{color:red}');
      assert.equal((await fetch(`${server.url}/_fragments/storefront/prerender/nope.css`)).status, 404);
      // Each remote's from its own server; only the remotes the server maps: no other path under
      // /_fragments/ reaches anything.
      const sheet = await fetch(`${server.url}/_fragments/auth/prerender/first-screen.css`);
      assert.equal(sheet.status, 200);
      assert.equal(await sheet.text(), '.auth-page{display:flex}');
      assert.equal((await fetch(`${server.url}/_fragments/auth/prerender/hero.css`)).status, 404);
      assert.equal((await fetch(`${server.url}/_fragments/admin/prerender/hero.css`)).status, 404);
    });
  });
}
