#!/usr/bin/env node
// Publishes one remote's production build under an immutable versioned path, ready to upload to
// the CDN as is:   node scripts/publish-remote.mjs dashboard 2.1.0 [--out releases] [--from dir]
// → releases/dashboard/2.1.0/ (remoteEntry.js, hashed chunks, assets; no source maps, no
// config.json). A version once published is never overwritten: a fix is a new version. The shell
// then runs it when its config.json names it (Helm: frontends.dashboard.version).
import { cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REMOTES = { storefront: 'storefront-mfe', auth: 'auth-mfe', dashboard: 'dashboard-mfe' };
const VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z][0-9A-Za-z.-]*)?$/;

function fail(message) {
  process.stderr.write(`publish-remote: ${message}\n`);
  process.exit(1);
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { out: { type: 'string', default: 'releases' }, from: { type: 'string' } },
});
const [remote, version] = positionals;
if (!remote || !version || positionals.length > 2) {
  fail('usage: publish-remote.mjs <storefront|auth|dashboard> <version> [--out dir] [--from dist]');
}
if (!Object.hasOwn(REMOTES, remote))
  fail(`unknown remote "${remote}" (one of ${Object.keys(REMOTES).join(', ')})`);
if (!VERSION.test(version)) fail(`version "${version}" is not a release version like 2.1.0 or 2.1.0-rc.1`);

const from = path.resolve(ROOT, values.from ?? path.join(REMOTES[remote], 'dist'));
if (!existsSync(path.join(from, 'remoteEntry.js'))) {
  fail(`${from} has no remoteEntry.js: build it first (npm run build -w ${REMOTES[remote]})`);
}
const target = path.resolve(ROOT, values.out, remote, version);
if (existsSync(target))
  fail(`${remote} ${version} is already published at ${target}; releases are immutable`);

/** Source maps stay with the build (error tracking), and config.json belongs to each environment. */
const served = (src) => !src.endsWith('.map') && path.relative(from, src) !== 'config.json';
mkdirSync(path.dirname(target), { recursive: true });
cpSync(from, target, { recursive: true, filter: served, errorOnExist: true, force: false });

const count = (dir) =>
  readdirSync(dir).reduce(
    (n, f) => n + (statSync(path.join(dir, f)).isDirectory() ? count(path.join(dir, f)) : 1),
    0,
  );
process.stdout.write(
  `published ${remote} ${version} → ${path.relative(ROOT, target) || target} (${count(target)} files)\n` +
    `upload it to <cdn>/${remote}/${version}/ with Cache-Control: public, max-age=31536000, immutable,\n` +
    `then release it: helm upgrade … --reuse-values --set frontends.${remote}.version=${version}\n`,
);
