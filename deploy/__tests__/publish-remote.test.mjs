// scripts/publish-remote.mjs: a remote's build published under <remote>/<version>/, never
// overwritten, without source maps or an environment's config.json.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';

const SCRIPT = path.join(import.meta.dirname, '..', '..', 'scripts', 'publish-remote.mjs');
const publish = (...args) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8' });

function fakeBuild(entry) {
  const dist = mkdtempSync(path.join(tmpdir(), 'remote-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'remoteEntry.js'), entry);
  writeFileSync(path.join(dist, 'remoteEntry.js.map'), '{}');
  writeFileSync(path.join(dist, '123.abcdef0123.js'), 'chunk');
  writeFileSync(path.join(dist, 'assets', 'logo.0123456789.svg'), '<svg/>');
  writeFileSync(path.join(dist, 'config.json'), '{"apiBaseUrl":"http://localhost:5000"}');
  return dist;
}

test('publishes under <remote>/<version>/ without maps or config.json, and never overwrites', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'releases-'));
  const first = publish('dashboard', '2.1.0', '--out', out, '--from', fakeBuild('v1'));
  assert.equal(first.status, 0, first.stderr);
  assert.match(first.stdout, /frontends\.dashboard\.version=2\.1\.0/);
  const dir = path.join(out, 'dashboard', '2.1.0');
  assert.equal(readFileSync(path.join(dir, 'remoteEntry.js'), 'utf8'), 'v1');
  assert.ok(existsSync(path.join(dir, '123.abcdef0123.js')));
  assert.ok(existsSync(path.join(dir, 'assets', 'logo.0123456789.svg')));
  assert.ok(!existsSync(path.join(dir, 'remoteEntry.js.map')), 'no source map is published');
  assert.ok(!existsSync(path.join(dir, 'config.json')), 'config.json belongs to each environment');

  const again = publish('dashboard', '2.1.0', '--out', out, '--from', fakeBuild('v2'));
  assert.equal(again.status, 1);
  assert.match(again.stderr, /already published .* releases are immutable/);
  assert.equal(
    readFileSync(path.join(dir, 'remoteEntry.js'), 'utf8'),
    'v1',
    'the published release is unchanged',
  );

  const next = publish('dashboard', '2.1.1', '--out', out, '--from', fakeBuild('v2'));
  assert.equal(next.status, 0, next.stderr);
  assert.equal(readFileSync(path.join(out, 'dashboard', '2.1.1', 'remoteEntry.js'), 'utf8'), 'v2');
});

test('refuses an unknown remote, a version that is not one, and a folder without a build', () => {
  const out = mkdtempSync(path.join(tmpdir(), 'releases-'));
  const dist = fakeBuild('v1');
  const cases = [
    [['shell', '1.0.0'], /unknown remote "shell"/],
    [['auth', 'latest'], /not a release version/],
    [['auth', '../1.0.0'], /not a release version/],
    [['auth', '1.0.0', '--from', tmpdir() + '/does-not-exist'], /has no remoteEntry\.js/],
  ];
  for (const [args, message] of cases) {
    const res = publish(...args, '--out', out, ...(args.includes('--from') ? [] : ['--from', dist]));
    assert.equal(res.status, 1, args.join(' '));
    assert.match(res.stderr, message);
  }
});
