// The slim shared entries and the build check that holds every front end to them
// (scripts/webpack/slim-check.cjs, docs/build.md): how imports are read, what a failing build
// says, and that every offered name exists in the code the entry stands for.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { SLIM } from '../webpack/shared.cjs';
import { checkSlimCoverage, checkedFiles, moduleLinks, offeredNames } from '../webpack/slim-check.cjs';

/** @type {string[]} */
const made = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Writes files into a fresh folder and returns their paths. @param {Record<string, string>} files */
function sources(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'slim-check-'));
  made.push(dir);
  return Object.entries(files).map(([name, text]) => {
    const file = path.join(dir, name);
    writeFileSync(file, text);
    return file;
  });
}

describe('moduleLinks', () => {
  test('reads value imports and re-exports, and skips type-only ones', () => {
    const links = moduleLinks(
      'page.tsx',
      `import { Link as RouterLink, type To, useParams } from 'react-router-dom';
       import type { Location } from 'react-router-dom';
       import * as Redux from '@reduxjs/toolkit';
       import toastify from 'react-toastify';
       import './side-effect.css';
       export { toast as notify, type Id } from 'react-toastify';
       export type { ToastOptions } from 'react-toastify';
       export * from './more';
       export const answer = 42;
       export function Page() { return <RouterLink to="/" />; }
       interface Props { location: Location; to: To }`,
    );
    assert.deepEqual(links.named, [
      { from: 'react-router-dom', name: 'Link' },
      { from: 'react-router-dom', name: 'useParams' },
      { from: 'react-toastify', name: 'toast' },
    ]);
    assert.deepEqual(links.whole, [
      { from: '@reduxjs/toolkit', how: 'import * as Redux' },
      { from: 'react-toastify', how: 'import toastify' },
      { from: './more', how: 'export *' },
    ]);
    assert.deepEqual(links.exported, ['notify', 'answer', 'Page']);
  });
});

describe('checkSlimCoverage', () => {
  test('passes for the front ends as they are', () => {
    assert.doesNotThrow(() => checkSlimCoverage());
  });

  test('names the file and the missing name, and where to add it', () => {
    const [page, other] = sources({
      'page.tsx': `import { Link, useBlocker } from 'react-router-dom';\nexport const a = [Link, useBlocker];`,
      'other.ts': `import * as Toolkit from '@reduxjs/toolkit';\nexport const b = Toolkit;`,
    });
    assert.throws(
      () => checkSlimCoverage([/** @type {string} */ (page), /** @type {string} */ (other)]),
      (/** @type {Error} */ err) => {
        assert.match(
          err.message,
          /page\.tsx: 'useBlocker' from 'react-router-dom' \(add it to scripts\/webpack\/slim\/react-router-dom\.mjs\)/,
        );
        assert.match(
          err.message,
          /other\.ts: import \* as Toolkit from '@reduxjs\/toolkit' \(import the names you use instead\)/,
        );
        assert.doesNotMatch(err.message, /'Link'/);
        return true;
      },
    );
  });

  test('checks the entries too: react-router-dom takes its names from the shared react-router', () => {
    assert.ok(checkedFiles().includes(/** @type {string} */ (SLIM['react-router-dom']?.entry)));
    const [entry] = sources({ 'dom.mjs': `export { Link, useBlocker } from 'react-router';` });
    assert.throws(
      () => checkSlimCoverage([/** @type {string} */ (entry)]),
      /'useBlocker' from 'react-router'/,
    );
  });
});

describe('the slim entries', () => {
  const offered = offeredNames();

  for (const [key, { real }] of Object.entries(SLIM)) {
    if (!real) continue;
    test(`every name '${key}' offers exists in the file it stands for`, async () => {
      const module = await import(pathToFileURL(real).href);
      const names = [...(offered.get(key)?.names ?? [])];
      assert.ok(names.length > 0);
      assert.deepEqual(
        names.filter((name) => !(name in module)),
        [],
      );
    });
  }

  test('react-toastify offers toast and ToastContainer, the real library has them', async () => {
    assert.deepEqual([...(offered.get('react-toastify')?.names ?? [])].sort(), ['ToastContainer', 'toast']);
    const real = await import('react-toastify/unstyled');
    assert.equal(typeof real.toast, 'function');
    assert.equal(typeof real.ToastContainer, 'function');
  });
});
