#!/usr/bin/env node
// `npm test`: lint and typecheck, the deployment checks (compose files, Helm chart), then the
// whole stack on test ports (so a running `npm start` is not disturbed), every workspace's tests
// against the real services, and the Chromium e2e suite. Exits non-zero on any failure.
import { spawn } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { DATA_DIR, ROOT, ensureDeployTools, log, ports, stopAll } from './services.mjs';
import { ensureInstalled, startStack } from './stack.mjs';
import { SLICES } from './api-calls.mjs';

const TEST_PORTS = ports({
  PORT_SHELL: '4100',
  PORT_STOREFRONT: '4101',
  PORT_AUTH: '4102',
  PORT_DASHBOARD: '4103',
  PORT_API: '5100',
  PORT_AUTH_EMULATOR: '9199',
  PORT_DB: '27117',
  PORT_STRIPE: '12211',
  PORT_SMTP: '11025',
  PORT_MAIL_UI: '18025',
  ...process.env,
});

// `node scripts/test.mjs e2e -- tests/cart.spec.ts --repeat-each 3`: the steps to run, then what
// follows `--` goes to Playwright as is. `--slice <storefront|auth|dashboard|shell>` narrows the
// e2e step to that team's journeys (its spec files by prefix) and checks its API calls against
// the document the stack's API serves (scripts/api-calls.mjs), so one team's release is tested alone.
const dashes = process.argv.indexOf('--');
const ownArgs = dashes === -1 ? process.argv.slice(2) : process.argv.slice(2, dashes);
const playwrightArgs = dashes === -1 ? [] : process.argv.slice(dashes + 1);
const sliceAt = ownArgs.findIndex((a) => a === '--slice' || a.startsWith('--slice='));
const slice =
  sliceAt === -1
    ? undefined
    : ownArgs[sliceAt]?.startsWith('--slice=')
      ? ownArgs[sliceAt]?.slice('--slice='.length)
      : ownArgs[sliceAt + 1];
if (sliceAt !== -1 && (!slice || !Object.hasOwn(SLICES, slice))) {
  console.error(`--slice takes one of ${Object.keys(SLICES).join(', ')}`);
  process.exit(2);
}
if (slice) {
  // Playwright reads each filter as a pattern over the spec files' paths.
  playwrightArgs.unshift(...SLICES[slice].specs.map((prefix) => `tests/${prefix}`));
  if (ownArgs[sliceAt] === '--slice') ownArgs.splice(sliceAt, 2);
  else ownArgs.splice(sliceAt, 1);
}
const only = ownArgs.filter((a) => !a.startsWith('-'));
const want = (step) => only.length === 0 || only.includes(step);
const results = [];

/**
 * Runs one step and waits for it without blocking this process: the stack's services write their
 * logs into pipes this process reads, and a service whose pipe is full stops answering (stripe-mock
 * did, part-way through the e2e suite, while a synchronous spawn held this event loop).
 */
async function step(name, command, args, env = {}, { tag } = {}) {
  log('test', `${name}: ${command} ${args.join(' ')}`);
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: ROOT,
    stdio: tag ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: { ...process.env, ...env },
  });
  if (tag) {
    // Beside another step: each line says whose it is.
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) =>
        to.write(`[${tag}] ${line}\n`),
      );
    }
  }
  const status = await new Promise((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (code) => resolve(code));
  });
  const ok = status === 0;
  results.push({ name, ok, secs: (Date.now() - started) / 1000 });
  log('test', `${name}: ${ok ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return ok;
}

/** The node:test files of a folder, named one by one (newer Node reads a folder argument as a module). */
function testFiles(dir) {
  const folder = path.join(dir, '__tests__');
  return readdirSync(path.join(ROOT, folder))
    .filter((f) => f.endsWith('.test.mjs'))
    .sort()
    .map((f) => path.join(folder, f));
}

let stopping = false;
async function finish(code) {
  if (stopping) return;
  stopping = true;
  await stopAll();
  console.log('\nSummary:');
  for (const r of results) console.log(`  ${r.ok ? 'ok  ' : 'FAIL'} ${r.name} (${r.secs.toFixed(0)} s)`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`steps: ${results.length - failed} passed, ${failed} failed`);
  process.exit(code || (failed > 0 ? 1 : 0));
}
process.on('SIGINT', () => void finish(130));
process.on('SIGTERM', () => void finish(143));

try {
  await ensureInstalled();
  if (want('lint')) await step('lint', 'npm', ['run', 'lint', '--silent']);
  if (want('deploy') || want('compose')) {
    // Compose files rendered by docker-compose, the Helm chart by helm + k8scheck (built once).
    try {
      ensureDeployTools();
      await step('deploy (compose, helm)', 'node', ['--test', ...testFiles('deploy')]);
    } catch (err) {
      console.error(err instanceof Error ? err.message : err);
      results.push({ name: 'deploy tools (go build)', ok: false, secs: 0 });
    }
  }
  if (want('unit')) await step('scripts tests', 'node', ['--test', ...testFiles('scripts')]);

  if (want('unit') || want('e2e')) {
    // A fresh database each run, apart from `npm start`'s, so runs never see each other's data.
    const dbDir = path.join(DATA_DIR, 'test-db');
    rmSync(dbDir, { recursive: true, force: true });
    const { apiEnv } = await startStack(TEST_PORTS, {
      quiet: true,
      dbDir,
      // The e2e suite signs the two demo accounts in from one address far more often than a
      // person would; the limits themselves are tested against the API (rate-limits.test.ts).
      env: {
        RATE_LIMIT_EXCHANGE_IP: '100000/60',
        RATE_LIMIT_EXCHANGE_USER: '100000/60',
        RATE_LIMIT_ORDER: '100000/60',
        RATE_LIMIT_REVIEW: '100000/60',
        RATE_LIMIT_LISTING: '100000/60',
        RATE_LIMIT_LISTING_ACCOUNT: '100000/60',
        RATE_LIMIT_STRIPE: '100000/60',
        RATE_LIMIT_CHECKOUT: '100000/60',
        // Test accounts are signed up in the emulator, unverified: the lower cap of unverified
        // accounts is tested against the API (cart-checkout.test.ts), as the limits are.
        MAX_UNVERIFIED_OPEN_ORDERS: '0',
        // The e2e journeys read the mail they cause from Mailpit: sent within a quarter second.
        MAIL_INTERVAL_MS: '250',
        // The stack's API runs in development mode, as under `npm start`; quieter logs only.
        LOG_LEVEL: 'warn',
        ...process.env,
        // The suites read what the API sent from the stack's own Mailpit, never a real server.
        SMTP_URL: '',
      },
    });
    const mailpitUrl = `http://127.0.0.1:${TEST_PORTS.mailUi}`;
    // The API suite reads what the stack's Mailpit received through its HTTP API (MAILPIT_URL).
    const serviceEnv = { ...apiEnv, MAILPIT_URL: mailpitUrl, NODE_ENV: 'test' };
    if (want('unit')) {
      // The API suite twice at once: with the read models kept in memory (in the workspaces' run)
      // and with those a MongoDB deployment uses (queries: api/src/read-models.ts), so both
      // implementations pass every test. Each suite waits on its services more than it computes,
      // so on two cores the pair takes about a fifth longer than one alone; against the embedded
      // FerretDB each test file has a database process of its own, and against a shared MongoDB the
      // second suite's databases are named apart (TEST_DATABASE_SUFFIX).
      await Promise.all([
        step('workspace tests', 'npm', ['test', '--workspaces', '--if-present', '--', '--ci'], serviceEnv, {
          tag: 'workspaces',
        }),
        step(
          'api tests (database read models)',
          'npm',
          ['test', '-w', 'api', '--', '--ci'],
          { ...serviceEnv, READ_MODELS: 'database', TEST_DATABASE_SUFFIX: '_database_reads' },
          { tag: 'api, database reads' },
        ),
      ]);
    }
    // Every slice's calls held to the API document the stack serves (one slice with --slice): with
    // the builds and the journeys below, `npm test` checks each slice as `npm run compat` does.
    if (want('e2e')) {
      for (const name of slice ? [slice] : ['storefront', 'auth', 'dashboard', 'shell']) {
        await step(`api calls (${name})`, 'node', [
          path.join(ROOT, 'scripts', 'api-calls.mjs'),
          name,
          '--openapi',
          `http://127.0.0.1:${TEST_PORTS.api}/openapi.json`,
          ...(slice && process.env.API_CALLS_JSON ? ['--json', process.env.API_CALLS_JSON] : []),
        ]);
      }
    }
    if (want('e2e')) {
      await step(
        slice ? `e2e (chromium, ${slice} journeys)` : 'e2e (chromium)',
        path.join(ROOT, 'node_modules', '.bin', 'playwright'),
        ['test', '-c', 'e2e', ...playwrightArgs],
        {
          E2E_BASE_URL: `http://localhost:${TEST_PORTS.shell}`,
          E2E_API_URL: `http://localhost:${TEST_PORTS.api}`,
          E2E_DASHBOARD_URL: `http://localhost:${TEST_PORTS.dashboard}`,
          E2E_AUTH_EMULATOR_URL: `http://127.0.0.1:${TEST_PORTS.authEmulator}`,
          E2E_STRIPE_WEBHOOK_SECRET: apiEnv.STRIPE_WEBHOOK_SECRET,
          E2E_MAILPIT_URL: mailpitUrl,
        },
      );
    }
  }
} catch (err) {
  console.error('\nTest run could not start:', err instanceof Error ? err.message : err);
  results.push({ name: 'stack start-up', ok: false, secs: 0 });
}
await finish(0);
