// The public site as search engines read it, served by both servers of the shell: a part page
// (/parts/:id) whose HTML, before any script, carries the part's own head from the API (title,
// canonical link, JSON-LD), a 404 with noindex for an unknown part, and /sitemap.xml,
// /sitemaps/<n>.xml and /robots.txt passed on from the API. scripts/serve-static.mjs and nginx with
// deploy/nginx.conf run the same cases over real HTTP, against a stand-in API that answers only
// the shop's own servers (X-Service-Token) and a stand-in storefront for the page's include.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createStaticServer } from '../serve-static.mjs';
import { close, freePort, listen, startNginx } from './support/servers.mjs';

const SERVICE_TOKEN = 'site-pages-test-token-0123456789abcdefgh';
const CONFIG_JSON = '{"apiBaseUrl":"https://api.shop.example/","remotes":{}}';
const SHOP = 'https://shop.example';

// The shell's page as the build writes it (scripts/webpack/page.cjs): index.html and its halves
// around the default title and description, and the page of a part that does not exist.
const TOP =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"/>' +
  '<script type="application/json" id="site-config"><!--# include virtual="/config.json" --></script>';
const DEFAULT_HEAD = '<meta name="description" content="MotoParts"/><title>MotoParts</title>';
const BOTTOM =
  '</head><body><div id="root"><!--# config errmsg="" -->' +
  '<!--# include virtual="/_fragments/storefront/prerender/home.html" --></div></body></html>';
const MISSING_HEAD = '<meta name="robots" content="noindex"/><title>Part not found - MotoParts</title>';
const HERO = '<h1>Hero</h1>';

/** What the stand-in API knows: its parts, by id. */
const parts = new Map([['0123456789abcdef01234567', { name: 'Brake lever' }]]);
const apiCalls = [];

function headOf(id, part) {
  const product = { '@context': 'https://schema.org', '@type': 'Product', name: part.name, sku: id };
  return (
    `<title>${part.name} - MotoParts</title><link rel="canonical" href="${SHOP}/parts/${id}" />` +
    `<script type="application/ld+json">${JSON.stringify(product)}</script>`
  );
}

let api;
let apiUrl;
let storefront;
let storefrontUrl;
before(async () => {
  api = createServer((req, res) => {
    apiCalls.push({ url: req.url, headers: req.headers });
    if (req.headers['x-service-token'] !== SERVICE_TOKEN) {
      return res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{}}');
    }
    const part = /^\/site\/parts\/([^/]+)\/head$/.exec(req.url ?? '');
    if (part) {
      const found = parts.get(part[1]);
      if (!found) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{}}');
      return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(headOf(part[1], found));
    }
    if (req.url === '/site/sitemap.xml') {
      const urls = [...parts.keys()].map((id) => `<url><loc>${SHOP}/parts/${id}</loc></url>`);
      return res
        .writeHead(200, { 'content-type': 'application/xml; charset=utf-8' })
        .end(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset>${urls.join('')}</urlset>`);
    }
    if (req.url === '/site/sitemaps/2.xml') {
      return res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' }).end('<urlset/>');
    }
    if (req.url === '/site/robots.txt') {
      return res
        .writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
        .end(`User-agent: *\nAllow: /\n\nSitemap: ${SHOP}/sitemap.xml\n`);
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{}}');
  });
  apiUrl = `http://127.0.0.1:${await listen(api)}/`;
  storefront = createServer((req, res) => {
    if (req.url === '/prerender/home.html')
      return res.writeHead(200, { 'content-type': 'text/html' }).end(HERO);
    res.writeHead(404).end();
  });
  storefrontUrl = `http://127.0.0.1:${await listen(storefront)}/`;
});
after(async () => {
  await close(api);
  await close(storefront);
});

function siteDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'site-pages-'));
  chmodSync(dir, 0o755); // nginx's workers may run as another user
  writeFileSync(path.join(dir, 'index.html'), TOP + DEFAULT_HEAD + BOTTOM);
  writeFileSync(path.join(dir, 'part-top.html'), TOP);
  writeFileSync(path.join(dir, 'part-bottom.html'), BOTTOM);
  writeFileSync(path.join(dir, 'part-missing.html'), TOP + MISSING_HEAD + BOTTOM);
  writeFileSync(path.join(dir, 'config.json'), CONFIG_JSON);
  return dir;
}

/** serve-static.mjs, as scripts/stack.mjs starts it for the shell. */
async function startStaticServer(api) {
  const server = createStaticServer({
    dir: siteDir(),
    includes: { '/_fragments/storefront/': storefrontUrl },
    fragmentTtlMs: 0,
    siteApi: api,
    serviceToken: SERVICE_TOKEN,
  });
  const url = `http://127.0.0.1:${await listen(server)}`;
  return { url, stop: () => close(server) };
}

/** nginx with deploy/nginx.conf. */
const startNginxServer = (api) =>
  startNginx({ root: siteDir(), storefrontUrl, apiUrl: api, serviceToken: SERVICE_TOKEN });

/** The page as served: the halves, includes resolved, around `head`. */
const page = (head) =>
  TOP.replace('<!--# include virtual="/config.json" -->', CONFIG_JSON) +
  head +
  BOTTOM.replace(/<!--#[^>]*-->/g, '').replace('</div>', `${HERO}</div>`);

const ld = (html) => {
  const block = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
  assert.ok(block, html);
  return JSON.parse(block[1]);
};

for (const [name, start] of [
  ['serve-static.mjs', startStaticServer],
  ['nginx (deploy/nginx.conf)', startNginxServer],
]) {
  describe(name, () => {
    let server;
    let apiDown;
    before(async () => {
      server = await start(apiUrl);
      apiDown = await start(`http://127.0.0.1:${await freePort()}/`);
    });
    after(async () => {
      await server.stop();
      await apiDown.stop();
    });
    const get = async (base, p) => {
      const res = await fetch(base + p, { headers: { 'accept-encoding': 'gzip' } });
      return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
    };

    test('a part page carries the part’s title, canonical link and JSON-LD before any script runs', async () => {
      const id = '0123456789abcdef01234567';
      const res = await get(server.url, `/parts/${id}`);
      assert.equal(res.status, 200);
      assert.match(res.type ?? '', /^text\/html/);
      assert.equal(res.body, page(headOf(id, parts.get(id))));
      assert.match(res.body, /<title>Brake lever - MotoParts<\/title>/);
      assert.match(res.body, new RegExp(`<link rel="canonical" href="${SHOP}/parts/${id}" />`));
      assert.deepEqual(ld(res.body), {
        '@context': 'https://schema.org',
        '@type': 'Product',
        name: 'Brake lever',
        sku: id,
      });
      assert.doesNotMatch(res.body, /<title>MotoParts<\/title>|noindex/);
    });

    test('the API is asked as the shop’s server, with none of the visitor’s headers', async () => {
      apiCalls.length = 0;
      await fetch(`${server.url}/parts/0123456789abcdef01234567`, {
        headers: { authorization: 'Bearer visitor', cookie: 'session=visitor' },
      });
      const call = apiCalls.find((c) => c.url === '/site/parts/0123456789abcdef01234567/head');
      assert.ok(call, JSON.stringify(apiCalls.map((c) => c.url)));
      assert.equal(call.headers['x-service-token'], SERVICE_TOKEN);
      assert.equal(call.headers.authorization, undefined);
      assert.equal(call.headers.cookie, undefined);
    });

    test('an unknown or malformed part id is a 404 page with noindex, the app’s page all the same', async () => {
      for (const p of ['/parts/ffffffffffffffffffffffff', '/parts/not-a-part!', '/parts/%3Cscript%3E']) {
        const res = await get(server.url, p);
        assert.equal(res.status, 404, p);
        assert.equal(res.body, page(MISSING_HEAD), p);
      }
    });

    test('with the API down, a part page is the app’s page as for any other route', async () => {
      const res = await get(apiDown.url, '/parts/0123456789abcdef01234567');
      assert.equal(res.status, 200);
      assert.equal(res.body, page(DEFAULT_HEAD));
    });

    test('the sitemap lists every part and follows a new one; its files and robots.txt come from the API', async () => {
      const first = await get(server.url, '/sitemap.xml');
      assert.equal(first.status, 200);
      assert.match(first.type ?? '', /^application\/xml/);
      assert.match(first.body, new RegExp(`<loc>${SHOP}/parts/0123456789abcdef01234567</loc>`));
      parts.set('aaaaaaaaaaaaaaaaaaaaaaaa', { name: 'Chain' });
      try {
        assert.match((await get(server.url, '/sitemap.xml')).body, /\/parts\/aaaaaaaaaaaaaaaaaaaaaaaa</);
        assert.equal((await get(server.url, '/parts/aaaaaaaaaaaaaaaaaaaaaaaa')).status, 200);
      } finally {
        parts.delete('aaaaaaaaaaaaaaaaaaaaaaaa');
      }
      assert.deepEqual(await get(server.url, '/sitemaps/2.xml'), {
        status: 200,
        type: 'application/xml; charset=utf-8',
        body: '<urlset/>',
      });
      assert.equal((await get(server.url, '/sitemaps/3.xml')).status, 404);
      const robots = await get(server.url, '/robots.txt');
      assert.equal(robots.status, 200);
      assert.match(robots.type ?? '', /^text\/plain/);
      assert.match(robots.body, new RegExp(`^Sitemap: ${SHOP}/sitemap.xml$`, 'm'));
    });

    test('the other routes are untouched: /parts is the app’s page', async () => {
      const res = await get(server.url, '/parts');
      assert.equal(res.status, 200);
      assert.equal(res.body, page(DEFAULT_HEAD));
    });
  });
}
