// Both servers of a built front end, as the tests start them: scripts/serve-static.mjs in this
// process, and real nginx (Debian's package; .ci/run installs it) with deploy/nginx.conf, its
// template variables filled in as the nginx image does at start-up.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.join(import.meta.dirname, '..', '..', '..');

export const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));
export const close = (server) => new Promise((resolve) => server.close(resolve));
export const freePort = async () => {
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

/** Debian's nginx (not always on a non-root PATH). */
export function nginxBinary() {
  const nginx = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => spawnSync(p, ['-v']).status === 0);
  assert.ok(nginx, 'nginx is not installed (apt-get install nginx); .ci/run installs it');
  return nginx;
}

/**
 * nginx serving `root` with deploy/nginx.conf.
 * @param {{ root: string, storefrontUrl: string, dashboardUrl?: string, authUrl?: string, apiUrl?: string, serviceToken?: string, cspPolicy?: string, configRoot?: string }} o
 *   configRoot: where config.json is served from (MOTOPARTS_CONFIG_ROOT; by default `root`)
 *   apiUrl: the API the site's part pages, sitemap and robots.txt come from (by default nothing
 *   listens there)
 */
export async function startNginx({
  root,
  storefrontUrl,
  dashboardUrl,
  authUrl,
  apiUrl = 'http://127.0.0.1:9',
  serviceToken = '',
  cspPolicy = "default-src 'self'",
  configRoot,
}) {
  const nginx = nginxBinary();
  const prefix = mkdtempSync(path.join(tmpdir(), 'nginx-'));
  mkdirSync(path.join(prefix, 'logs'));
  const port = await freePort();
  const site = readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8')
    .replaceAll('${STOREFRONT_INTERNAL_URL}', storefrontUrl.replace(/\/$/, ''))
    .replaceAll('${DASHBOARD_INTERNAL_URL}', (dashboardUrl ?? storefrontUrl).replace(/\/$/, ''))
    .replaceAll('${AUTH_INTERNAL_URL}', (authUrl ?? storefrontUrl).replace(/\/$/, ''))
    .replaceAll('${API_INTERNAL_URL}', apiUrl.replace(/\/$/, ''))
    .replaceAll('${SERVICE_TOKEN}', serviceToken)
    .replaceAll('${NGINX_RESOLVER}', '127.0.0.1')
    .replaceAll('${CSP_POLICY}', cspPolicy)
    .replaceAll('${MOTOPARTS_CONFIG_ROOT}', configRoot ?? root)
    .replace('listen 8080;', `listen 127.0.0.1:${port};`)
    .replace('root /usr/share/nginx/html;', `root ${root};`);
  assert.doesNotMatch(site, /\$\{[A-Z_]+\}/, 'every template variable of deploy/nginx.conf is filled in');
  writeFileSync(path.join(prefix, 'site.conf'), site);
  writeFileSync(
    path.join(prefix, 'nginx.conf'),
    `daemon off; pid ${prefix}/nginx.pid; error_log ${prefix}/logs/error.log;
     events {}
     http { access_log off; client_body_temp_path ${prefix}; proxy_temp_path ${prefix};
            types { text/html html; text/css css; text/javascript js; application/json json map; text/plain txt; application/xml xml; }
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
