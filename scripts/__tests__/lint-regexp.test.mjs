// The regular-expression rules of eslint.config.mjs, run on made-up files placed in the real
// tree: a pattern that backtracks or moves super-linearly fails lint wherever it is written, so
// no request-sized input can hold the API's event loop (or a page's main thread) in a pattern.
import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const eslint = new ESLint({ cwd: ROOT });

/** The regexp/* rule ids ESLint reports for `code` as if it were the file `file`. */
async function regexpErrors(file, code) {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) });
  return result.messages
    .filter((m) => m.ruleId?.startsWith('regexp/') && m.severity === 2)
    .map((m) => m.ruleId);
}

const PLANTED = {
  'api/src/http/probe.ts':
    'export const redact = (url: string) => url.replace(/[^/?&=#]+@[^/?&=#]+/g, "[email]");\n',
  'contracts/src/probe.ts': 'export const email = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/;\n',
  'storefront-mfe/src/lib/probe.ts': 'export const trim = (s: string) => s.replace(/\\s+$/, "");\n',
  'scripts/probe.mjs': 'export const spaced = (s) => /^CMD\\s+(.*)$/m.exec(s);\n',
};

for (const [file, code] of Object.entries(PLANTED)) {
  test(`a super-linear pattern fails lint in ${file}`, async () => {
    const errors = await regexpErrors(file, code);
    assert.ok(
      errors.some(
        (id) => id === 'regexp/no-super-linear-backtracking' || id === 'regexp/no-super-linear-move',
      ),
      `expected a super-linear error, got ${JSON.stringify(errors)}`,
    );
  });
}

test('the linear rewrites of those patterns pass', async () => {
  const linear = {
    'api/src/http/probe.ts': 'export const runs = (url: string) => url.split(/([/?&=#\\s])/);\n',
    'contracts/src/probe.ts': 'export const email = /^[^\\s@]+@[^\\s@.]+(?:\\.[^\\s@.]+)+$/;\n',
    'scripts/probe.mjs': 'export const spaced = (s) => /^CMD\\s+(\\S.*)$/m.exec(s);\n',
  };
  for (const [file, code] of Object.entries(linear))
    assert.deepEqual(await regexpErrors(file, code), [], file);
});
