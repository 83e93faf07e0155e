// The shell's static server passes the included fragments' stylesheets through from the remotes
// (scripts/serve-static.mjs, as `npm start` and `npm test` run it). Only that: a plain relative
// path to a `.css` file of the configured remote. Anything else under /_fragments/ (an absolute
// or protocol-relative URL, percent-escapes, `..`, another kind of file) is refused without a
// request to anyone, and none of these answers grants cross-origin access.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createStaticServer, fragmentStylesheetUrl } from '../serve-static.mjs';
import { close, listen } from './support/servers.mjs';

/** A stand-in remote that records what it is asked for. */
function recordingServer(answer) {
  const asked = [];
  const server = createServer((req, res) => {
    asked.push(req.url);
    answer(req, res);
  });
  return { server, asked };
}

// The storefront, whose stylesheet the shell's pages link (and which would welcome anyone).
const storefront = recordingServer((req, res) => {
  const headers = { 'access-control-allow-origin': '*' };
  if (req.url === '/prerender/hero.css') {
    return res.writeHead(200, { ...headers, 'content-type': 'text/css' }).end('.hero{color:red}');
  }
  if (req.url === '/moved.css') return res.writeHead(302, { location: `${elsewhereUrl}x.css` }).end();
  res.writeHead(200, { ...headers, 'content-type': 'text/plain' }).end('anything');
});
// Any other host: nothing may ever reach it through the shell's server.
const elsewhere = recordingServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/css' }).end('.stolen{}');
});
let storefrontUrl;
let elsewhereUrl;
let shell;
let shellPort;

before(async () => {
  storefrontUrl = `http://127.0.0.1:${await listen(storefront.server)}/`;
  elsewhereUrl = `http://127.0.0.1:${await listen(elsewhere.server)}/`;
  const dir = mkdtempSync(path.join(tmpdir(), 'fragment-css-'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>shell</title>');
  writeFileSync(path.join(dir, 'main.0123456789.js'), 'console.log(1)');
  shell = createStaticServer({ dir, includes: { '/_fragments/storefront/': storefrontUrl } });
  shellPort = await listen(shell);
});
after(async () => {
  await close(shell);
  await close(storefront.server);
  await close(elsewhere.server);
});

/** GET with the path exactly as written: fetch() would resolve `..` and `%2e%2e` first. */
function rawGet(rawPath) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: shellPort, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a stylesheet of the storefront, by its relative path, passes through, without granting cross-origin access', async () => {
  const res = await rawGet('/_fragments/storefront/prerender/hero.css');
  assert.equal(res.status, 200);
  assert.equal(res.body, '.hero{color:red}');
  assert.match(res.headers['content-type'], /^text\/css/);
  assert.equal(res.headers['access-control-allow-origin'], undefined);
  assert.ok(storefront.asked.includes('/prerender/hero.css'));
  // The server's own files keep theirs: the remotes' chunks are loaded from other origins.
  assert.equal((await rawGet('/main.0123456789.js')).headers['access-control-allow-origin'], '*');
});

test('absolute, protocol-relative, encoded and `..` paths and other files are refused, and nobody is asked', async () => {
  const host = new URL(elsewhereUrl).host;
  const before = storefront.asked.length;
  const refused = [
    // Absolute URLs, as sent by the open-proxy request and its variants.
    `/_fragments/storefront/http:%2F%2F${host}%3Fx.css`,
    `/_fragments/storefront/http:%2F%2F${host}%2Fx.css`,
    `/_fragments/storefront/http://${host}/x.css`,
    `/_fragments/storefront/HTTP:%2f%2f${host}%2fx.css`,
    // Protocol-relative, also written with backslashes.
    `/_fragments/storefront//${host}/x.css`,
    `/_fragments/storefront/%2F%2F${host}%2Fx.css`,
    `/_fragments/storefront/\\\\${host}\\x.css`,
    // Encoded names, and an encoded prefix.
    '/_fragments/storefront/prerender%2Fhero.css',
    '/_fragments/storefront/prerender/hero%2Ecss',
    '/_fragments%2Fstorefront%2Fprerender%2Fhero.css',
    // `..` and `.` segments, plain or encoded, even when they would land on the stylesheet.
    '/_fragments/storefront/prerender/../prerender/hero.css',
    '/_fragments/storefront/prerender/%2e%2e/prerender/hero.css',
    '/_fragments/storefront/../storefront/prerender/hero.css',
    '/_fragments/storefront/./prerender/hero.css',
    // Not a stylesheet, or one with a query.
    '/_fragments/storefront/prerender/home.html',
    '/_fragments/storefront/secret.txt',
    '/_fragments/storefront/prerender/hero.css.map',
    '/_fragments/storefront/prerender/hero.css?x=1',
    '/_fragments/storefront/prerender/hero.css%3Fx',
    '/_fragments/storefront/',
  ];
  for (const p of refused) {
    const res = await rawGet(p);
    assert.ok(res.status >= 400 && res.status < 500, `${p} → ${res.status}`);
    assert.equal(res.headers['access-control-allow-origin'], undefined, p);
    assert.notEqual(res.body, '.hero{color:red}', p);
  }
  assert.deepEqual(storefront.asked.slice(before), []);
  assert.deepEqual(elsewhere.asked, []);
});

test('a redirect from the storefront is not followed', async () => {
  const res = await rawGet('/_fragments/storefront/moved.css');
  assert.equal(res.status, 502);
  assert.ok(storefront.asked.includes('/moved.css'));
  assert.deepEqual(elsewhere.asked, []);
});

test('fragmentStylesheetUrl resolves only to stylesheets on the remote’s own origin and path', () => {
  const base = 'http://remote.test:8080/storefront/';
  assert.equal(fragmentStylesheetUrl(base, 'prerender/a.css')?.href, `${base}prerender/a.css`);
  for (const rel of [
    'http://evil.test/a.css',
    '//evil.test/a.css',
    '/a.css',
    '../a.css',
    'x/../../a.css',
    'a.css?x',
    'a.css#x',
    'a%2ecss',
    'a.js',
    '',
  ]) {
    assert.equal(fragmentStylesheetUrl(base, rel), null, rel);
  }
});
