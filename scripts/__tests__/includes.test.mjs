// The shell's index.html includes the storefront's prerendered hero through a server-side include
// (<!--# include virtual="/_fragments/storefront/…" -->). Two servers resolve it: the static
// server used by `npm start` and `npm test`, and nginx with deploy/nginx.conf in production. The
// same cases run against both, over real HTTP, with a real upstream standing in for the
// storefront: `node --test scripts/__tests__` (nginx from Debian's package; .ci/run installs it).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createStaticServer } from '../serve-static.mjs';

const ROOT = path.join(import.meta.dirname, '..', '..');
const PAGE =
  '<main><!--# config errmsg="" --><!--# include virtual="/_fragments/storefront/prerender/home.html" --></main>';

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const close = (server) => new Promise((resolve) => server.close(resolve));
const freePort = async () => {
  const s = createServer();
  const port = await listen(s);
  await close(s);
  return port;
};
const waitFor = async (url) => {
  for (let i = 0; i < 100; i += 1) {
    if (
      await fetch(url).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} did not come up`);
};

/** A stand-in storefront whose fragment answer each test sets. */
let fragment = { status: 200, body: '<h1>Hero v1</h1>' };
let upstream;
let upstreamUrl;
before(async () => {
  upstream = createServer((req, res) => {
    if (req.url !== '/prerender/home.html') return res.writeHead(404).end('<html>not found</html>');
    res.writeHead(fragment.status, { 'content-type': 'text/html' }).end(fragment.body);
  });
  upstreamUrl = `http://127.0.0.1:${await listen(upstream)}/`;
});
after(() => close(upstream));

function siteDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'includes-'));
  chmodSync(dir, 0o755); // nginx's workers may run as another user
  writeFileSync(path.join(dir, 'index.html'), PAGE);
  return dir;
}

/** serve-static.mjs, as scripts/stack.mjs starts it for the shell. */
async function startStaticServer(storefrontUrl) {
  const server = createStaticServer({
    dir: siteDir(),
    includes: { '/_fragments/storefront/': storefrontUrl },
    fragmentTtlMs: 0, // every request shows what the upstream answers now
  });
  const url = `http://127.0.0.1:${await listen(server)}`;
  return { url, stop: () => close(server) };
}

/** nginx with deploy/nginx.conf, its template variables filled in as the nginx image does. */
async function startNginx(storefrontUrl) {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);
  assert.ok(nginx, 'nginx is not installed (apt-get install nginx); .ci/run installs it');
  const prefix = mkdtempSync(path.join(tmpdir(), 'nginx-'));
  mkdirSync(path.join(prefix, 'logs'));
  const port = await freePort();
  const site = readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
    .replaceAll('${STOREFRONT_INTERNAL_URL}', storefrontUrl.replace(/\/$/, ''))
    .replaceAll('${NGINX_RESOLVER}', '127.0.0.1')
    .replace('listen 8080;', `listen 127.0.0.1:${port};`)
    .replace('root /usr/share/nginx/html;', `root ${siteDir()};`);
  assert.doesNotMatch(site, /\$\{[A-Z_]+\}/, 'every template variable of deploy/nginx.conf is filled in');
  writeFileSync(path.join(prefix, 'site.conf'), site);
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    `daemon off; pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log;
     events {}
     http { access_log off; client_body_temp_path ${prefix}; proxy_temp_path ${prefix};
            include ${prefix}/site.conf; }`,
  );
  const child = spawn(nginx, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], { stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(url);
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGQUIT');
      }),
  };
}

for (const [name, start] of [
  ['serve-static.mjs', startStaticServer],
  ['nginx (deploy/nginx.conf)', startNginx],
]) {
  describe(name, () => {
    let server;
    let down;
    before(async () => {
      server = await start(upstreamUrl);
      // One more, pointed at a port nothing listens on: the storefront is down.
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

    test('includes the fragment into the page and every SPA fallback; no directive reaches the client', async () => {
      fragment = { status: 200, body: '<h1>Hero v1</h1>' };
      for (const p of ['/', '/index.html', '/blogs', '/purchase/123']) {
        assert.deepEqual(await get(server.url, p), { status: 200, body: '<main><h1>Hero v1</h1></main>' }, p);
      }
    });

    test('serves the storefront’s current fragment (a storefront deploy needs no shell build)', async () => {
      fragment = { status: 200, body: '<h1>Hero v2</h1>' };
      assert.equal((await get(server.url)).body, '<main><h1>Hero v2</h1></main>');
    });

    test('a failing or missing fragment leaves the include empty, never an error page', async () => {
      fragment = { status: 503, body: '<html>upstream error</html>' };
      assert.deepEqual(await get(server.url), { status: 200, body: '<main></main>' });
      fragment = { status: 404, body: '<html>not found</html>' };
      assert.deepEqual(await get(server.url), { status: 200, body: '<main></main>' });
    });

    test('a storefront that is down leaves the include empty and the page served', async () => {
      assert.deepEqual(await get(down.url), { status: 200, body: '<main></main>' });
    });

    test('the fragment path is not served to browsers by the shell', async () => {
      fragment = { status: 200, body: '<h1>Hero</h1>' };
      const res = await get(server.url, '/_fragments/storefront/prerender/home.html');
      assert.notEqual(res.body, '<h1>Hero</h1>');
    });
  });
}
