#!/usr/bin/env node
// `npm run compat -- <storefront|auth|dashboard|shell>`: the check a team runs before releasing its
// slice alone. Builds the candidate (this working tree's version of the slice) for production,
// then, through scripts/test.mjs's stack (the current API, the other slices' production builds),
// holds the slice's API calls to the OpenAPI document the API serves and runs the slice's e2e
// journeys (for the shell, the platform ones). Prints a short report; exits non-zero on any failure.
// What follows `--` goes to Playwright, as with `npm test` (e.g. `--repeat-each 2`).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, SLICES, formatReport } from './api-calls.mjs';
import { log } from './services.mjs';
import { exec } from './stack.mjs';
import contractCheck from './webpack/contract.cjs';
import ownCopy from './webpack/own-copy.cjs';

const dashes = process.argv.indexOf('--');
const args = dashes === -1 ? process.argv.slice(2) : process.argv.slice(2, dashes);
const playwrightArgs = dashes === -1 ? [] : process.argv.slice(dashes + 1);
const slice = args[0];
if (!slice || args.length > 1 || !Object.hasOwn(SLICES, slice)) {
  console.error(`usage: npm run compat -- <${Object.keys(SLICES).join('|')}> [-- <playwright args>]`);
  process.exit(2);
}
const { ws, specs } = SLICES[slice];

/**
 * Each journey file's outcome from Playwright's JSON report: its spec files with their tests'
 * results, suites nested by `describe`.
 * @returns {{ file: string, passed: number, failed: string[], skipped: number }[]}
 */
function journeys(report) {
  /** @type {Map<string, { file: string, passed: number, failed: string[], skipped: number }>} */
  const files = new Map();
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      const file = spec.file ?? suite.file;
      const entry = files.get(file) ?? { file, passed: 0, failed: [], skipped: 0 };
      for (const test of spec.tests ?? []) {
        if (test.status === 'skipped') entry.skipped += 1;
        else if (test.status === 'expected' || test.status === 'flaky') entry.passed += 1;
        else entry.failed.push([...titles, spec.title].join(' › '));
      }
      files.set(file, entry);
    }
    for (const child of suite.suites ?? []) walk(child, child.title ? [...titles, child.title] : titles);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return [...files.values()].sort((a, b) => a.file.localeCompare(b.file));
}

/** Runs scripts/test.mjs's e2e step for the slice on the stack it starts; resolves with its exit code. */
function runStack(env) {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'scripts', 'test.mjs'), 'e2e', '--slice', slice, '--', ...playwrightArgs],
      { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } },
    );
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code ?? 1));
  });
}

const work = mkdtempSync(path.join(tmpdir(), `compat-${slice}-`));
const journeysFile = path.join(work, 'journeys.json');
const apiCallsFile = path.join(work, 'api-calls.json');
const problems = [];

log('compat', `building the candidate: npm run build -w ${ws} (production)…`);
const started = Date.now();
try {
  // Contracts, state and the API first, as the stack would; the candidate is always rebuilt, so
  // what is checked is this working tree, never an older dist/.
  await exec(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b']);
  await exec('npm', ['run', 'build', '--silent', '-w', ws]);
  log('compat', `${ws} built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  problems.push(`the candidate ${ws} did not build`);
}

// A remote's shared names that the shell's contract does not offer and that it takes from its own
// copy instead (docs/build.md, "A name the shell does not offer"): reported, not a failure.
const ownCopies =
  slice === 'shell'
    ? undefined
    : await contractCheck.readContract().then(({ contract, where }) => ({
        where,
        lines: ownCopy.describeOwnCopies(ownCopy.ownCopyImports(path.join(ROOT, ws), contract)),
      }));

let stackCode = 0;
if (problems.length === 0) {
  stackCode = await runStack({ E2E_JOURNEYS_FILE: journeysFile, API_CALLS_JSON: apiCallsFile });
}

const lines = ['', `Compatibility of the ${slice} candidate (${ws}, this working tree):`];
if (ownCopies) {
  lines.push(
    ownCopies.lines.length > 0
      ? `Shared names from its own copy, which the shell (${ownCopies.where}) does not offer (${ownCopies.lines.length}):\n` +
          ownCopies.lines.map((line) => `  ${line}`).join('\n')
      : `Shared names: the shell (${ownCopies.where}) offers every one it imports`,
  );
}
if (existsSync(apiCallsFile)) {
  const result = JSON.parse(readFileSync(apiCallsFile, 'utf8'));
  lines.push(formatReport(slice, result));
  if (result.missing.length > 0) problems.push(`${result.missing.length} API call(s) the API does not offer`);
} else if (problems.length === 0) {
  problems.push('the API-call check did not run (the stack did not start)');
}
if (existsSync(journeysFile)) {
  const files = journeys(JSON.parse(readFileSync(journeysFile, 'utf8')));
  const passed = files.reduce((n, f) => n + f.passed, 0);
  const failed = files.reduce((n, f) => n + f.failed.length, 0);
  lines.push(`Journeys (${specs.map((s) => `${s}*`).join(', ')}): ${passed} passed, ${failed} failed`);
  for (const f of files) {
    const skipped = f.skipped ? `, ${f.skipped} skipped` : '';
    lines.push(`  ${f.failed.length ? 'FAIL' : 'ok  '} ${f.file}: ${f.passed} passed${skipped}`);
    for (const title of f.failed) lines.push(`       failed: ${title}`);
  }
  if (files.length === 0) problems.push('no journey ran');
  if (failed > 0) problems.push(`${failed} journey test(s) failed`);
} else if (problems.length === 0) {
  problems.push('the journeys did not run');
}
if (stackCode !== 0 && problems.length === 0) problems.push(`the test run exited with ${stackCode}`);
lines.push(
  problems.length === 0
    ? `compat ${slice}: compatible`
    : `compat ${slice}: NOT compatible (${problems.join('; ')})`,
);
console.log(lines.join('\n'));
rmSync(work, { recursive: true, force: true });
process.exit(problems.length === 0 ? 0 : 1);
