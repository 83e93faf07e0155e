// The cycle check of `npm run lint` (scripts/check-cycles.mjs) on made-up sources: a cycle through
// a type-only import is one, and sources whose imports point one way have none.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cyclesIn } from '../check-cycles.mjs';

function sources(files) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-cycles-'));
  for (const [name, code] of Object.entries(files)) writeFileSync(path.join(dir, name), code);
  return dir;
}

test('a cycle through a type-only import is found', async () => {
  const dir = sources({
    'app.ts': "import type { Deps } from './routes';\nexport const app = (d: Deps) => d;\n",
    'routes.ts': "import { app } from './app';\nexport interface Deps { a: number }\nexport const r = app;\n",
  });
  try {
    assert.deepEqual(await cyclesIn(dir), [['app.ts', 'routes.ts']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('imports that point one way have no cycle', async () => {
  const dir = sources({
    'app.ts':
      "import type { Deps } from './deps';\nimport { r } from './routes';\nexport const app = (d: Deps) => [d, r];\n",
    'routes.ts': "import type { Deps } from './deps';\nexport const r = (d: Deps) => d;\n",
    'deps.ts': 'export interface Deps { a: number }\n',
  });
  try {
    assert.deepEqual(await cyclesIn(dir), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
