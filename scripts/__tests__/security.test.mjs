// The front ends' hardening, over real HTTP against both static servers (serve-static.mjs as the
// local stack runs it, real nginx with deploy/nginx.conf and the policy scripts/csp.mjs prints):
// security headers with a policy made from config.json, source maps never served, malformed
// percent-escapes answered 400 without a stack trace, and no way out of the served folder.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { contentSecurityPolicy, inlineHashes } from '../csp.mjs';
import { createStaticServer } from '../serve-static.mjs';
import { ROOT, close, freePort, listen, nginxBinary, startNginx } from './support/servers.mjs';

const CONFIG = {
  shellUrl: 'https://www.shop.example/',
  apiBaseUrl: 'https://api.shop.example',
  remotes: {
    storefront: 'https://storefront.shop.example/',
    auth: 'https://auth.shop.example/',
    dashboard: 'https://dashboard.shop.example/',
  },
  firebase: { apiKey: 'k', authDomain: 'shop-project.firebaseapp.com', projectId: 'shop-project' },
  firebaseAuthEmulatorUrl: 'http://127.0.0.1:9099',
  stripePublishableKey: 'pk_test_x',
};
// Like the shell's page: inline styles, a tiny inline script for the first screen, and the site's
// config as a data block (never run, so not allowed as a script).
const INDEX =
  '<!doctype html><html><head><style id="s">body{margin:0}</style>' +
  '<script type="application/json" id="site-config"><!--# include virtual="/config.json" --></script>' +
  '<script>document.documentElement.dataset.ok="1"</script></head>' +
  '<body><div id="root"></div><script defer src="/main.0123456789.js"></script></body></html>';
const SOURCE_MAP = '{"version":3,"sources":["webpack://shell/src/secret-source.tsx"]}';
const SECRET = 'sibling secret';

/** parent/dist (served) beside parent/dist-old and parent/distfile.txt (must never be served). */
function site() {
  const parent = mkdtempSync(path.join(tmpdir(), 'security-'));
  const dist = path.join(parent, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  mkdirSync(path.join(parent, 'dist-old'));
  for (const d of [parent, dist, path.join(dist, 'assets'), path.join(parent, 'dist-old')])
    chmodSync(d, 0o755);
  writeFileSync(path.join(dist, 'index.html'), INDEX);
  writeFileSync(path.join(dist, 'main.0123456789.js'), 'console.log(1);');
  writeFileSync(path.join(dist, 'main.0123456789.js.map'), SOURCE_MAP);
  writeFileSync(path.join(dist, 'remoteEntry.js.map'), SOURCE_MAP);
  writeFileSync(path.join(parent, 'dist-old', 'secret.txt'), SECRET);
  writeFileSync(path.join(parent, 'distfile.txt'), SECRET);
  return { parent, dist };
}

/** A request with the path exactly as given (fetch would normalise dot segments away). */
function rawGet(base, rawPath) {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: rawPath, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const expectedPolicy = contentSecurityPolicy(CONFIG, inlineHashes(INDEX));

test('the policy allows exactly the configured origins, hashed inline code, no framing', () => {
  const directives = Object.fromEntries(
    expectedPolicy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1)]),
  );
  assert.deepEqual(directives['frame-ancestors'], ["'none'"]);
  assert.deepEqual(directives['object-src'], ["'none'"]);
  for (const name of Object.keys(directives)) {
    assert.ok(!directives[name].includes("'unsafe-inline'"), `${name} allows no unhashed inline code`);
    assert.ok(!directives[name].includes("'unsafe-eval'"), `${name} allows no eval`);
    assert.ok(!directives[name].includes('*'), `${name} has no wildcard source`);
  }
  const ours = [
    'https://www.shop.example',
    'https://storefront.shop.example',
    'https://auth.shop.example',
    'https://dashboard.shop.example',
  ];
  for (const origin of ours) {
    assert.ok(directives['script-src'].includes(origin), `script-src ${origin}`);
    assert.ok(directives['style-src'].includes(origin), `style-src ${origin}`);
  }
  assert.ok(!directives['script-src'].includes('https://api.shop.example'), 'the API serves no scripts');
  assert.ok(directives['connect-src'].includes('https://api.shop.example'));
  // Photos: the shop's own origins and the API's /uploads/, never any https origin at all; the
  // Google account photos (the top bar's avatar) by name only.
  assert.ok(directives['img-src'].includes('https://api.shop.example'), 'img-src allows the API’s /uploads/');
  assert.ok(directives['img-src'].includes('https://www.shop.example'));
  assert.ok(!directives['img-src'].includes('https:'), 'img-src allows no whole scheme');
  assert.ok(!directives['img-src'].includes('http:'), 'img-src allows no whole scheme');
  assert.deepEqual(
    directives['img-src'].filter((s) => s.includes('*')),
    ['https://*.googleusercontent.com', 'https://*.stripe.com'],
  );
  assert.ok(directives['connect-src'].includes('http://127.0.0.1:9099'), 'the configured auth emulator');
  assert.ok(directives['connect-src'].includes('https://identitytoolkit.googleapis.com'));
  assert.ok(directives['connect-src'].includes('https://api.stripe.com'));
  assert.ok(directives['script-src'].includes('https://js.stripe.com'));
  assert.ok(directives['frame-src'].includes('https://shop-project.firebaseapp.com'));
  assert.ok(directives['frame-src'].includes('https://js.stripe.com'));
  // The two inline elements that a browser applies, by the hash it computes over their text; the
  // data block is not one of them.
  assert.equal(directives['script-src'].filter((s) => s.startsWith("'sha256-")).length, 1);
  assert.equal(directives['style-src'].filter((s) => s.startsWith("'sha256-")).length, 1);
  const sha = (text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
  assert.ok(directives['style-src'].includes(sha('body{margin:0}')));
  assert.ok(directives['script-src'].includes(sha('document.documentElement.dataset.ok="1"')));

  // No emulator configured (production): its origin is nowhere.
  const real = contentSecurityPolicy({ ...CONFIG, firebaseAuthEmulatorUrl: undefined });
  assert.doesNotMatch(real, /127\.0\.0\.1/);

  // A canary release served from a CDN: its scripts and styles are allowed too.
  const scripts = (policy) =>
    policy
      .split(';')
      .find((d) => d.trim().startsWith('script-src'))
      .trim()
      .split(/\s+/);
  assert.ok(!scripts(real).includes('https://cdn.shop.example'));
  const withCanary = contentSecurityPolicy({
    ...CONFIG,
    canary: { dashboard: { url: 'https://cdn.shop.example/dashboard/2.2.0/', percent: 10 } },
  });
  assert.ok(scripts(withCanary).includes('https://cdn.shop.example'));
});

test('the policy lets the page open a dev server’s update socket only when config.json names it', () => {
  const connect = (config) =>
    contentSecurityPolicy(config)
      .split('; ')
      .find((d) => d.startsWith('connect-src '))
      ?.split(' ')
      .slice(1) ?? [];
  assert.ok(!connect(CONFIG).some((s) => s.startsWith('ws:') || s.startsWith('wss:')));
  const dev = { ...CONFIG, devRemotes: { auth: 'ws://localhost:3002' } };
  assert.ok(connect(dev).includes('ws://localhost:3002'));
  assert.ok(!connect(dev).includes('ws:'), 'the one origin, not the whole scheme');
});

test('scripts/csp.mjs prints the same policy nginx is given', () => {
  const { dist } = site();
  const configFile = path.join(dist, '..', 'config.json');
  writeFileSync(configFile, JSON.stringify(CONFIG));
  const printed = execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'csp.mjs'), configFile, dist], {
    encoding: 'utf8',
  }).trim();
  assert.equal(printed, expectedPolicy);
});

test('a config.json that could end the page’s data block is refused by both servers', () => {
  const { dist } = site();
  const configFile = path.join(dist, '..', 'config.json');
  for (const bad of ['http://x/</script><script>alert(1)//', 'http://x/<!--']) {
    const text = JSON.stringify({ ...CONFIG, apiBaseUrl: bad });
    writeFileSync(configFile, text);
    // At container start (deploy/csp.envsh runs this): no policy, so no nginx.
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'csp.mjs'), configFile, dist], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 1, bad);
    assert.match(run.stderr, /must not contain "<\/script" or "<!--"/);
    assert.throws(() => createStaticServer({ dir: dist, configJson: text }), /must not contain/);
  }
  // The same text with `<` escaped, as JSON allows, is fine.
  const escaped = JSON.stringify({ ...CONFIG, apiBaseUrl: 'http://x/</script>' }).replace(/</g, '\\u003c');
  assert.doesNotThrow(() => createStaticServer({ dir: dist, configJson: escaped }));
});

test('nginx refuses to start when the deployment did not give it a policy', () => {
  const prefix = mkdtempSync(path.join(tmpdir(), 'nginx-nocsp-'));
  mkdirSync(path.join(prefix, 'logs'));
  // Everything filled in but ${CSP_POLICY}, as the nginx image leaves a variable it was not given.
  const site = readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
    .replaceAll('${STOREFRONT_INTERNAL_URL}', 'http://127.0.0.1:9')
    .replaceAll('${DASHBOARD_INTERNAL_URL}', 'http://127.0.0.1:9')
    .replaceAll('${AUTH_INTERNAL_URL}', 'http://127.0.0.1:9')
    .replaceAll('${NGINX_RESOLVER}', '127.0.0.1');
  writeFileSync(path.join(prefix, 'site.conf'), site);
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    `pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log; events {} http { include ${prefix}/site.conf; }`,
  );
  const res = spawnSync(nginxBinary(), ['-t', '-p', prefix, '-c', path.join(prefix, 'nginx.conf')], {
    encoding: 'utf8',
  });
  assert.notEqual(res.status, 0);
  assert.match(res.stderr, /unknown "csp_policy" variable/);
});

/** serve-static.mjs, as scripts/stack.mjs starts it. */
async function startStaticServer(dist) {
  const server = createStaticServer({ dir: dist, configJson: JSON.stringify(CONFIG) });
  const url = `http://127.0.0.1:${await listen(server)}`;
  return { url, stop: () => close(server) };
}

/** nginx with deploy/nginx.conf and the policy as `node scripts/csp.mjs config.json dist` prints it. */
async function startNginxFor(dist) {
  const configFile = path.join(dist, '..', 'config.json');
  writeFileSync(configFile, JSON.stringify(CONFIG));
  const cspPolicy = execFileSync(
    process.execPath,
    [path.join(ROOT, 'scripts', 'csp.mjs'), configFile, dist],
    {
      encoding: 'utf8',
    },
  ).trim();
  return startNginx({ root: dist, storefrontUrl: `http://127.0.0.1:${await freePort()}/`, cspPolicy });
}

for (const [name, start] of [
  ['serve-static.mjs', startStaticServer],
  ['nginx (deploy/nginx.conf)', startNginxFor],
]) {
  describe(name, () => {
    let server;
    let errors;
    const consoleError = console.error;
    before(async () => {
      server = await start(site().dist);
      // serve-static runs in this process: anything it logs as an error is caught here.
      errors = [];
      console.error = (...args) => errors.push(args.map(String).join(' '));
    });
    after(async () => {
      console.error = consoleError;
      await server.stop();
    });

    test('every answer carries the policy, nosniff and a referrer policy', async () => {
      for (const p of ['/', '/index.html', '/some/route', '/main.0123456789.js', '/missing.png']) {
        const res = await fetch(server.url + p);
        await res.arrayBuffer();
        assert.equal(res.headers.get('content-security-policy'), expectedPolicy, p);
        assert.equal(res.headers.get('x-content-type-options'), 'nosniff', p);
        assert.equal(res.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', p);
      }
    });

    test('source maps are not served', async () => {
      for (const p of ['/main.0123456789.js.map', '/remoteEntry.js.map']) {
        const res = await fetch(server.url + p);
        assert.equal(res.status, 404, p);
        assert.doesNotMatch(await res.text(), /secret-source/, p);
      }
      // The bundle does not point at its map either (hidden-source-map builds; see e2e budgets).
      assert.equal((await fetch(`${server.url}/main.0123456789.js`)).status, 200);
    });

    test('malformed percent-escapes are a 400 without a stack trace', async () => {
      for (const p of ['/%', '/%E0%A4%A', '/assets/%zz.js', '/%zz']) {
        const res = await rawGet(server.url, p);
        assert.equal(res.status, 400, p);
        assert.doesNotMatch(res.body, /URIError|at .*\.m?js:\d+|stack/i, p);
      }
      assert.deepEqual(errors, [], 'nothing logged as an error');
    });

    test('nothing outside the served folder, not even a sibling named dist…', async () => {
      for (const p of [
        '/..%2Fdist-old/secret.txt',
        '/..%2fdist-old%2fsecret.txt',
        '/%2e%2e/dist-old/secret.txt',
        '/..%2Fdistfile.txt',
        '/../dist-old/secret.txt',
      ]) {
        const res = await rawGet(server.url, p);
        assert.notEqual(res.status, 200, p);
        assert.ok([400, 404].includes(res.status), `${p}: ${res.status}`);
        assert.doesNotMatch(res.body, new RegExp(SECRET), p);
      }
      if (name === 'serve-static.mjs') {
        assert.equal((await rawGet(server.url, '/..%2Fdist-old/secret.txt')).status, 404);
      }
    });
  });
}
