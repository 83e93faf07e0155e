// A remote's shared names that the shell does not offer, taken from the remote's own copy
// (scripts/webpack/own-copy.cjs, own-copy-loader.cjs; docs/build.md, "A name the shell does not
// offer"): which names may, what the build check and the contract check say about them, and how
// the loader rewrites an import.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { shellContract, unmetRequirements } from '../webpack/contract.cjs';
import ownCopyLoader from '../webpack/own-copy-loader.cjs';
import { ownCopyImports, ownCopyRewrites } from '../webpack/own-copy.cjs';
import { ROOT, SLIM } from '../webpack/shared.cjs';
import { checkSlimCoverage, mayUseOwnCopy } from '../webpack/slim-check.cjs';

/** @type {string[]} */
const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A remote's folder with these sources under src/. @param {Record<string, string>} files */
function remote(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'own-copy-'));
  made.push(dir);
  mkdirSync(path.join(dir, 'src'));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, 'src', name), text);
  return dir;
}

const contract = shellContract();
const deps = { react: '^19.0.0', 'react-dom': '^19.0.0', 'react-redux': '^9.0.0' };

describe('which names may come from a remote’s own copy', () => {
  test('any Redux Toolkit function; react-router’s path helpers but no hook or component; nothing of RTK Query’s React API', () => {
    assert.equal(mayUseOwnCopy('@reduxjs/toolkit', 'createEntityAdapter'), true);
    assert.equal(mayUseOwnCopy('react-router-dom', 'parsePath'), true);
    assert.equal(mayUseOwnCopy('react-router', 'resolvePath'), true);
    // These need the page's one router context or the one store's API.
    assert.equal(mayUseOwnCopy('react-router-dom', 'useBlocker'), false);
    assert.equal(mayUseOwnCopy('react-router-dom', 'Link'), false);
    assert.equal(mayUseOwnCopy('@reduxjs/toolkit/query/react', 'skipToken'), false);
    assert.equal(mayUseOwnCopy('react-toastify', 'Slide'), false);
  });

  test('react-router-dom’s own copy is react-router’s file, whose names it re-exports', () => {
    assert.equal(SLIM['react-router-dom']?.ownCopy?.from, SLIM['react-router']?.real);
  });
});

describe('a remote that imports a name the shell does not offer', () => {
  const dir = remote({
    'page.tsx':
      "import { createSlice, createEntityAdapter } from '@reduxjs/toolkit';\n" +
      "import { Link, parsePath } from 'react-router-dom';\n",
  });

  test('is no unmet requirement when the name may come from its own copy, and is listed', () => {
    assert.ok(!contract.slim['@reduxjs/toolkit']?.includes('createEntityAdapter'));
    assert.ok(!contract.slim['react-router-dom']?.includes('parsePath'));
    assert.deepEqual(unmetRequirements({ dir, pkg: { dependencies: deps } }, contract), []);
    assert.deepEqual(ownCopyImports(dir, contract), [
      { file: path.join('src', 'page.tsx'), from: '@reduxjs/toolkit', name: 'createEntityAdapter' },
      { file: path.join('src', 'page.tsx'), from: 'react-router-dom', name: 'parsePath' },
    ]);
  });

  test('a name an older deployed shell lacks comes from its own copy too; one it offers does not', () => {
    const older = JSON.parse(JSON.stringify(contract));
    older.slim['@reduxjs/toolkit'] = older.slim['@reduxjs/toolkit'].filter(
      (/** @type {string} */ n) => n !== 'createSlice',
    );
    assert.deepEqual(
      ownCopyImports(dir, older).map(({ name }) => name),
      ['createSlice', 'createEntityAdapter', 'parsePath'],
    );
  });

  test('a name no copy may serve still fails, naming it', () => {
    const hook = remote({ 'page.tsx': "import { useBlocker } from 'react-router-dom';\n" });
    assert.deepEqual(unmetRequirements({ dir: hook, pkg: { dependencies: deps } }, contract), [
      `${path.join('src', 'page.tsx')}: 'useBlocker' from 'react-router-dom' is not offered by the shell's slim entry (release the shell with it first)`,
    ]);
  });

  test('the build check lets a remote’s own-copy name through, never the shell’s or the kit’s', () => {
    // In each workspace's folder, outside src/ (which a build running meanwhile would read).
    const probe = (/** @type {string} */ ws) => {
      const dir = mkdtempSync(path.join(ROOT, ws, '.own-copy-probe-'));
      made.push(dir);
      const file = path.join(dir, 'page.tsx');
      writeFileSync(file, "import { createEntityAdapter } from '@reduxjs/toolkit';\n");
      return file;
    };
    const inRemote = probe('dashboard-mfe');
    const inShell = probe('shell');
    assert.doesNotThrow(() => checkSlimCoverage([inRemote]));
    assert.throws(
      () => checkSlimCoverage([inShell]),
      /shell\/\.own-copy-probe-\w+\/page\.tsx: 'createEntityAdapter'/,
    );
  });
});

describe('own-copy-loader', () => {
  const rewrites = ownCopyRewrites([
    { file: 'src/a.tsx', from: '@reduxjs/toolkit', name: 'createEntityAdapter' },
    { file: 'src/a.tsx', from: 'react-router-dom', name: 'parsePath' },
  ]);
  const run = (/** @type {string} */ source) =>
    ownCopyLoader.call(
      /** @type {import('webpack').LoaderContext<{ rewrites: typeof rewrites }>} */ (
        /** @type {unknown} */ ({ getOptions: () => ({ rewrites }), resourcePath: '/r/src/a.tsx' })
      ),
      source,
    );
  const toolkit = JSON.stringify(SLIM['@reduxjs/toolkit']?.ownCopy?.from);
  const router = JSON.stringify(SLIM['react-router']?.real);

  test('splits an import: the offered names stay shared, the others come from the own copy', () => {
    assert.equal(
      run("import { createSlice, createEntityAdapter as adapter } from '@reduxjs/toolkit';\nconst x = 1;\n"),
      `import { createSlice } from "@reduxjs/toolkit"; import { createEntityAdapter as adapter } from ${toolkit};\nconst x = 1;\n`,
    );
    assert.equal(
      run(
        "import {\n  parsePath,\n} from 'react-router-dom';\nexport { createEntityAdapter } from '@reduxjs/toolkit';\n",
      ),
      `import { parsePath } from ${router};\n\n\nexport { createEntityAdapter } from ${toolkit};\n`,
    );
  });

  test('leaves type-only imports and other packages alone', () => {
    const source =
      "import type { EntityAdapter } from '@reduxjs/toolkit';\n" +
      "import { type EntityState, createSlice } from '@reduxjs/toolkit';\n" +
      "import { useState } from 'react';\n";
    assert.equal(run(source), source);
  });
});
