// The static server's server-side includes (the shell's index.html includes the storefront's
// prerendered hero), against real HTTP servers: `node --test scripts/__tests__`.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createStaticServer } from '../serve-static.mjs';

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
const close = (server) => new Promise((resolve) => server.close(resolve));

const PAGE = '<main><!--# config errmsg="" --><!--# include virtual="/_fragments/up/hero.html" --></main>';
let fragment = { status: 200, body: '<h1>Hero v1</h1>' };
let upstream;
let upstreamPort;
let shell;
let shellUrl;

before(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'serve-static-'));
  writeFileSync(path.join(dir, 'index.html'), PAGE);
  upstream = createServer((req, res) => {
    if (req.url !== '/hero.html') return res.writeHead(404).end();
    res.writeHead(fragment.status, { 'content-type': 'text/html' }).end(fragment.body);
  });
  upstreamPort = await listen(upstream);
  // No reuse of fetched fragments here, so every request shows what the upstream answers now.
  const includes = { '/_fragments/up/': `http://127.0.0.1:${upstreamPort}/` };
  shell = createStaticServer({ dir, includes, fragmentTtlMs: 0 });
  shellUrl = `http://127.0.0.1:${await listen(shell)}`;
});
after(async () => {
  await close(shell);
  if (upstream.listening) await close(upstream);
});

const get = async (p = '/') => {
  const res = await fetch(shellUrl + p);
  return { status: res.status, body: await res.text(), cache: res.headers.get('cache-control') };
};

test('resolves includes on the page and on SPA fallbacks; no directive reaches the client', async () => {
  for (const p of ['/', '/index.html', '/blogs', '/purchase/123']) {
    const res = await get(p);
    assert.equal(res.status, 200);
    assert.equal(res.body, '<main><h1>Hero v1</h1></main>');
    assert.equal(res.cache, 'no-cache');
  }
});

test('serves a changed fragment', async () => {
  fragment = { status: 200, body: '<h1>Hero v2</h1>' };
  assert.equal((await get()).body, '<main><h1>Hero v2</h1></main>');
});

test('a failing upstream keeps the last good fragment; a removed one becomes empty', async () => {
  fragment = { status: 503, body: 'down' };
  assert.equal((await get()).body, '<main><h1>Hero v2</h1></main>');
  fragment = { status: 404, body: 'gone' };
  assert.equal((await get()).body, '<main></main>');
});

test('an unreachable upstream leaves the include empty and the page still served', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'serve-static-'));
  writeFileSync(path.join(dir, 'index.html'), PAGE);
  await close(upstream);
  const lonely = createStaticServer({
    dir,
    includes: { '/_fragments/up/': `http://127.0.0.1:${upstreamPort}/` },
  });
  const url = `http://127.0.0.1:${await listen(lonely)}/`;
  try {
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '<main></main>');
  } finally {
    await close(lonely);
  }
});
