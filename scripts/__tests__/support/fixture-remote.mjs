// Builds a copy of the fixture remote (scripts/__tests__/fixtures/remote) with the shared
// requirements and the shell contract a test chooses, through the same createConfig and
// webpack-cli as a real remote's `npm run build`. Used by the build guard's tests and, as a
// command, by the e2e test of the runtime guard:
//   node scripts/__tests__/support/fixture-remote.mjs <out dir> '<dependencies JSON>' [contract file]
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURE = path.join(ROOT, 'scripts', '__tests__', 'fixtures', 'remote');
// The webpack-cli a remote's `npm run build` runs (installed per workspace, not hoisted).
const dashboard = createRequire(path.join(ROOT, 'dashboard-mfe', 'package.json'));
const WEBPACK_CLI = path.join(path.dirname(dashboard.resolve('webpack-cli/package.json')), 'bin', 'cli.js');

/**
 * @param {{ dependencies?: Record<string, string>, contract?: string }} [o] dependencies: ranges
 *   that replace the fixture's own; contract: the shell contract to check against (SHELL_CONTRACT)
 * @returns {Promise<{ ok: boolean, output: string, dist: string, remove: () => void }>}
 */
export async function buildFixtureRemote({ dependencies = {}, contract } = {}) {
  // Beside the fixture, so the copy resolves packages from the repo's node_modules.
  const dir = mkdtempSync(path.join(path.dirname(FIXTURE), '.build-'));
  cpSync(FIXTURE, dir, { recursive: true });
  const pkgFile = path.join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  writeFileSync(pkgFile, JSON.stringify({ ...pkg, dependencies: { ...pkg.dependencies, ...dependencies } }));
  const env = { ...process.env };
  if (contract) env.SHELL_CONTRACT = contract;
  else delete env.SHELL_CONTRACT;
  const child = spawn(
    process.execPath,
    [WEBPACK_CLI, '--mode', 'production', '-c', path.join(dir, 'webpack.config.js')],
    {
      cwd: dir,
      env,
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise((resolve) => child.on('close', resolve));
  return {
    ok: code === 0,
    output,
    dist: path.join(dir, 'dist'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [out, deps = '{}', contract] = process.argv.slice(2);
  if (!out) throw new Error('usage: fixture-remote.mjs <out dir> [dependencies JSON] [contract file]');
  const built = await buildFixtureRemote({ dependencies: JSON.parse(deps), contract });
  if (!built.ok) {
    built.remove();
    console.error(built.output);
    process.exit(1);
  }
  rmSync(out, { recursive: true, force: true });
  cpSync(built.dist, out, { recursive: true });
  built.remove();
}
