// The shell's shared contract and the build guard that holds each remote to it
// (scripts/webpack/contract.cjs, docs/build.md "Version guard").
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { REPO_CONTRACT, shellContract, unmetRequirements } from '../webpack/contract.cjs';
import { buildFixtureRemote } from './support/fixture-remote.mjs';

/** @type {(() => void)[]} */
const cleanups = [];
after(() => cleanups.forEach((c) => c()));

const contract = shellContract();

describe('the shell contract', () => {
  test("the repo's copy is the one this checkout builds (run node scripts/webpack/contract.cjs)", () => {
    assert.deepEqual(JSON.parse(readFileSync(REPO_CONTRACT, 'utf8')), contract);
  });

  test('names the package and version of every singleton and the names of each slim entry', () => {
    assert.equal(contract.shared['react-dom/client']?.package, 'react-dom');
    assert.match(contract.shared['react-redux']?.version ?? '', /^9\.\d+\.\d+$/);
    assert.ok(contract.slim['react-router-dom']?.includes('Link'));
    assert.ok(!contract.slim['react-router-dom']?.includes('createBrowserRouter'));
  });
});

describe('unmetRequirements', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'contract-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const deps = { react: '^19.0.0', 'react-dom': '^19.0.0', 'react-redux': '^9.0.0' };

  test('a remote within the shared versions, importing only offered names, has none', () => {
    assert.deepEqual(unmetRequirements({ dir, pkg: { dependencies: deps } }, contract), []);
  });

  test('an unsatisfiable range names the package and both versions', () => {
    const problems = unmetRequirements(
      { dir, pkg: { dependencies: { ...deps, 'react-redux': '^99.0.0' } } },
      contract,
    );
    assert.deepEqual(problems, [
      `react-redux: requires react-redux ^99.0.0, the shell shares react-redux ${contract.shared['react-redux']?.version}`,
    ]);
  });

  test("a slimmed name the shell's entry does not offer is named with its file", () => {
    const src = path.join(dir, 'src');
    mkdirSync(src, { recursive: true });
    writeFileSync(path.join(src, 'page.tsx'), "import { Link, useBlocker } from 'react-router-dom';\n");
    assert.deepEqual(unmetRequirements({ dir, pkg: { dependencies: deps } }, contract), [
      "src/page.tsx: 'useBlocker' from 'react-router-dom' is not offered by the shell's slim entry (release the shell with it first)",
    ]);
  });
});

describe('a remote build', () => {
  test('fails before bundling, naming the package and both versions, when the shell cannot serve it', async () => {
    const built = await buildFixtureRemote({ dependencies: { 'react-redux': '^99.0.0' } });
    cleanups.push(built.remove);
    assert.equal(built.ok, false);
    const shared = contract.shared['react-redux']?.version;
    assert.match(
      built.output,
      /The dashboard remote cannot run in the shell described by shell\/shared-contract\.json/,
    );
    assert.ok(
      built.output.includes(
        `react-redux: requires react-redux ^99.0.0, the shell shares react-redux ${shared}`,
      ),
      built.output,
    );
  });

  test('builds its remoteEntry.js when the contract is met', async () => {
    const built = await buildFixtureRemote();
    cleanups.push(built.remove);
    assert.equal(built.ok, true, built.output);
    assert.ok(readFileSync(path.join(built.dist, 'remoteEntry.js'), 'utf8').length > 0);
    // The fixture imports a Redux Toolkit name the shell does not offer: taken from its own copy.
    assert.match(
      built.output,
      /The dashboard remote takes from its own copy what the shell described by shell\/shared-contract\.json does not offer:\n {2}src\/dashboard-app\.tsx: 'createEntityAdapter' from '@reduxjs\/toolkit'/,
    );
  });

  test('checks against the contract SHELL_CONTRACT names (a deployed shell)', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'contract-')), 'shared-contract.json');
    cleanups.push(() => rmSync(path.dirname(file), { recursive: true, force: true }));
    const older = JSON.parse(JSON.stringify(contract));
    older.shared.react = { package: 'react', version: '18.3.1' };
    writeFileSync(file, JSON.stringify(older));
    const built = await buildFixtureRemote({ contract: file });
    cleanups.push(built.remove);
    assert.equal(built.ok, false);
    assert.ok(
      built.output.includes('react: requires react ^19.3.1, the shell shares react 18.3.1'),
      built.output,
    );
  });
});
