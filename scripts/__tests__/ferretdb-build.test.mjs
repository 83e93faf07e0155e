// The FerretDB patches (scripts/ferretdb-build.mjs) apply to the exact upstream text or stop the
// build with a message naming the file; and, against the module tools/go.mod pins (from the Go
// module cache, where building the tools put it), each still matches.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FERRETDB_PATCHES, applyPatches, ferretModuleDir } from '../ferretdb-build.mjs';

const TOOLS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'tools');

describe('FerretDB patches', () => {
  test('replace every occurrence they expect, and nothing else', () => {
    const files = {
      'a.go': 'x := 1\nIDColumn = old\n',
      'b.go': 'if n == 1 {\n}\nif n == 1 {\n}\n',
    };
    const out = {};
    applyPatches(
      (f) => files[f],
      (f, t) => (out[f] = t),
      [
        { file: 'a.go', find: 'IDColumn = old', replace: 'IDColumn = new', count: 1 },
        { file: 'b.go', find: 'if n == 1 {', replace: 'if n >= 1 {', count: 2 },
      ],
    );
    assert.equal(out['a.go'], 'x := 1\nIDColumn = new\n');
    assert.equal(out['b.go'], 'if n >= 1 {\n}\nif n >= 1 {\n}\n');
  });

  test('stop with the file named when upstream changed', () => {
    assert.throws(
      () =>
        applyPatches(
          () => 'nothing to see',
          () => assert.fail('must not write'),
          [{ file: 'internal/x.go', find: 'gone', replace: 'y', count: 1 }],
        ),
      /expected 1× "gone" in internal\/x\.go, found 0/,
    );
  });

  let source = '';
  try {
    source = ferretModuleDir(TOOLS); // the same lookup the build uses (downloads it if missing)
  } catch {
    // no Go on this machine: nothing to compare with
  }
  test(
    'match the pinned FerretDB source',
    { skip: source && existsSync(source) ? false : 'Go or the FerretDB module is not available here' },
    () => {
      const written = [];
      applyPatches(
        (f) => readFileSync(path.join(source, f), 'utf8'),
        (f) => written.push(f),
      );
      assert.deepEqual(
        written,
        FERRETDB_PATCHES.map((p) => p.file),
      );
    },
  );
});
