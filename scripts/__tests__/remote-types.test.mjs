// The types across remotes: the shell's typecheck holds every remote's exposed modules to what
// the shell expects of them (shell/src/remotes/exposed.ts). Here the dashboard's declaration is
// swapped for a fixture's, as a release changing its exposed module would change it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURES = path.join(ROOT, 'scripts', '__tests__', 'fixtures');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/** @type {string[]} */
const made = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** `tsc` over the shell's expectations, with the dashboard's declared modules taken from `fixture`. */
function typecheckWithDashboard(/** @type {string} */ fixture) {
  // Beside the fixtures, so packages resolve from the repo's node_modules.
  const dir = mkdtempSync(path.join(FIXTURES, '.build-'));
  made.push(dir);
  const config = path.join(dir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: path.join(ROOT, 'shell', 'tsconfig.json'),
      compilerOptions: {
        types: [],
        paths: { '@motoparts/dashboard-mfe/exposed': [path.join(FIXTURES, 'remote-types', fixture)] },
      },
      include: [],
      files: [
        path.join(ROOT, 'shell', 'src', 'remotes', 'exposed.ts'),
        path.join(ROOT, 'types', 'assets.d.ts'),
      ],
    }),
  );
  const run = spawnSync(process.execPath, [TSC, '-p', config], { cwd: ROOT, encoding: 'utf8' });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

test('a release that keeps the contract typechecks (an optional prop more is fine)', () => {
  const { ok, output } = typecheckWithDashboard('dashboard-compatible.ts');
  assert.ok(ok, output);
});

test("a page that now requires a prop fails the shell's typecheck, naming the module", () => {
  const { ok, output } = typecheckWithDashboard('dashboard-incompatible.ts');
  assert.equal(ok, false);
  assert.match(output, /shell\/src\/remotes\/exposed\.ts.*error TS2344/);
  assert.match(output, /DashboardApp/);
  assert.match(output, /accountId/);
});

test("a route table whose entries changed shape fails the shell's typecheck", () => {
  const { ok, output } = typecheckWithDashboard('dashboard-routes-changed.ts');
  assert.equal(ok, false);
  assert.match(output, /routes/);
  assert.match(output, /title/);
});
