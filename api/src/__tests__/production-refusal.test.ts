// The real API process (api/dist/server.js, rebuilt first) booted with NODE_ENV=production and
// one development setting at a time: it must exit non-zero with a line naming the problem, and
// start when the setting is a production one.
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEnv, productionProblems } from '../lib/env';

const API_DIR = path.join(__dirname, '..', '..');
const SERVER = path.join(API_DIR, 'dist', 'server.js');

const strong = () => randomBytes(36).toString('base64url');

/** What a real deployment passes: nothing here is a development value. */
const production = (): Record<string, string> => ({
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PORT: '0',
  // Refusal happens before any connection; a started process retries this in the background.
  MONGODB_URI: 'mongodb://127.0.0.1:9/motoparts',
  FIREBASE_PROJECT_ID: 'motoparts-prod',
  STRIPE_SECRET_KEY: 'sk_live_0123456789abcdefghijklmnop',
  STRIPE_WEBHOOK_SECRET: `whsec_${strong()}`,
  JWT_SECRET: strong(),
  // Nothing is sent at boot: the transport connects at the first message.
  SMTP_URL: `smtps://orders:${strong()}@smtp.motoparts.example:465`,
  LOG_LEVEL: 'info',
});

interface Boot {
  code: number | null;
  stderr: string;
  stdout: string;
}

/** Boots the server; resolves when it exits, or (then kills it) once it says it is listening. */
function boot(overrides: Record<string, string | undefined>): Promise<Boot> {
  // Only what is given: nothing from the test's own environment leaks into the process.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [k, v] of Object.entries({ ...production(), ...overrides })) if (v !== undefined) env[k] = v;
  const child = spawn(process.execPath, [SERVER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
    if (stdout.includes('API listening')) child.kill('SIGTERM');
  });
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr, stdout })));
}

const problemLines = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('  '))
    .map((l) => l.trim());

beforeAll(() => {
  // The test runs the compiled server, so compile the current sources first (incremental).
  execFileSync(path.join(API_DIR, '..', 'node_modules', '.bin', 'tsc'), ['-b'], { cwd: API_DIR });
}, 180_000);

it('starts with production values (the control for every refusal below)', async () => {
  const res = await boot({});
  expect(res.stdout).toContain('API listening');
  expect(res.stderr).toBe('');
});

it.each([
  [
    'JWT_SECRET',
    'local-dev-secret-change-me-in-production-0123456789',
    'published in the MotoParts repository',
  ],
  // Too short for any mode: the schema itself names it.
  ['JWT_SECRET', randomBytes(23).toString('base64url').slice(0, 31), '(shorter than|at least) 32 characters'],
  ['JWT_SECRET', 'x'.repeat(40), 'not random'],
  ['STRIPE_WEBHOOK_SECRET', 'whsec_motoparts_local', 'published in the MotoParts repository'],
  ['STRIPE_WEBHOOK_SECRET', 'whsec_0123456789abcdefghij', 'shorter than 32 characters'],
  ['FIREBASE_AUTH_EMULATOR_HOST', '127.0.0.1:9099', 'Firebase Auth emulator'],
  ['STRIPE_API_BASE', 'http://127.0.0.1:12111', 'stripe-mock'],
  ['STRIPE_API_BASE', 'https://127.0.0.1:12112', 'not the real Stripe API'],
  // Test keys: test cards would "pay" for real orders.
  ['STRIPE_SECRET_KEY', 'sk_test_0123456789abcdefghijklmnop', 'Stripe test key'],
  ['STRIPE_SECRET_KEY', 'rk_test_0123456789abcdefghijklmnop', 'Stripe test key'],
  // Stripe's own host, but the secret key would cross the network in clear text.
  ['STRIPE_API_BASE', 'http://api.stripe.com', 'clear text'],
])('refuses %s=%s with a line naming it', async (name, value, reason) => {
  const res = await boot({ [name]: value });
  expect(res.code).not.toBe(0);
  expect(res.stdout).not.toContain('API listening');
  const lines = problemLines(res.stderr);
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^${name} .*${reason}`));
});

it('names every problem on its own line at once', async () => {
  const res = await boot({
    JWT_SECRET: 'local-dev-secret-change-me-in-production-0123456789',
    STRIPE_WEBHOOK_SECRET: 'whsec_short',
    STRIPE_SECRET_KEY: 'sk_test_123',
    FIREBASE_AUTH_EMULATOR_HOST: 'auth-emulator:9099',
    STRIPE_API_BASE: 'http://stripe-mock:12111',
  });
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain('refusing to start with NODE_ENV=production');
  const lines = problemLines(res.stderr);
  expect(lines.map((l) => l.split(' ')[0])).toEqual([
    'JWT_SECRET',
    'STRIPE_WEBHOOK_SECRET',
    'STRIPE_SECRET_KEY',
    'FIREBASE_AUTH_EMULATOR_HOST',
    'STRIPE_API_BASE',
  ]);
  // Two reasons against one variable are one line.
  expect(lines[4]).toMatch(/clear text.*stripe-mock/);
});

describe('mail', () => {
  it('refuses to start without SMTP_URL, naming the ways out', async () => {
    const res = await boot({ SMTP_URL: undefined });
    expect(res.code).not.toBe(0);
    expect(res.stdout).not.toContain('API listening');
    expect(problemLines(res.stderr)).toEqual([
      'SMTP_URL is missing: the API could not send its mail (set SMTP_URL or SMTP_URL_FILE, or ' +
        'MAIL_DISABLED=1 to run without mail)',
    ]);
    // Neither a demo nor a staging deployment goes without mail unless it says so.
    const demo = await boot({ SMTP_URL: undefined, ALLOW_LOCAL_SERVICES: '1', STRIPE_TEST_MODE: '1' });
    expect(demo.code).not.toBe(0);
    expect(problemLines(demo.stderr).map((l) => l.split(' ')[0])).toEqual(['SMTP_URL']);
  });

  it('MAIL_DISABLED=1 starts without SMTP_URL and warns once at boot that no mail is sent', async () => {
    const res = await boot({ SMTP_URL: undefined, MAIL_DISABLED: '1' });
    expect(res.stdout).toContain('API listening');
    expect(res.stderr).toBe('');
    const warnings = res.stdout.split('\n').filter((l) => l.includes('MAIL_DISABLED=1'));
    expect(warnings.map((l) => JSON.parse(l) as unknown)).toEqual([
      expect.objectContaining({ level: 40, msg: 'MAIL_DISABLED=1: the API sends no mail' }),
    ]);
  });

  it('MAIL_DISABLED=1 does not read SMTP_URL_FILE: a placeholder file (compose: /dev/null) is fine', async () => {
    const res = await boot({ SMTP_URL: undefined, SMTP_URL_FILE: '/dev/null', MAIL_DISABLED: '1' });
    expect(res.stdout).toContain('API listening');
    expect(res.stderr).toBe('');
  });

  it('names a malformed SMTP_URL without printing it (it may hold a password)', async () => {
    const res = await boot({ SMTP_URL: 'https://orders:hunter2-password@smtp.motoparts.example' });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toContain('SMTP_URL is invalid (must be an smtp:// or smtps:// URL with a host)');
    expect(res.stderr + res.stdout).not.toContain('hunter2');
  });
});

it('ALLOW_LOCAL_SERVICES=1 allows the emulator and stripe-mock in a demo, never a published secret', async () => {
  const local = {
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
    STRIPE_API_BASE: 'http://127.0.0.1:12111',
    STRIPE_SECRET_KEY: 'sk_test_123',
  };
  const demo = await boot({ ...local, ALLOW_LOCAL_SERVICES: '1' });
  expect(demo.stdout).toContain('API listening');
  expect(demo.stdout).toContain('ALLOW_LOCAL_SERVICES=1');

  const published = await boot({
    ...local,
    ALLOW_LOCAL_SERVICES: '1',
    STRIPE_WEBHOOK_SECRET: 'whsec_motoparts_local',
  });
  expect(published.code).not.toBe(0);
  expect(problemLines(published.stderr)).toEqual([
    expect.stringMatching(/^STRIPE_WEBHOOK_SECRET .*published/),
  ]);
});

it('STRIPE_TEST_MODE=1 (staging) allows a Stripe test key, says so at boot, and allows nothing else', async () => {
  const staging = await boot({
    STRIPE_TEST_MODE: '1',
    STRIPE_SECRET_KEY: 'sk_test_0123456789abcdefghijklmnop',
  });
  expect(staging.stdout).toContain('API listening');
  expect(staging.stdout).toContain('STRIPE_TEST_MODE=1');
  expect(staging.stderr).toBe('');

  const local = await boot({
    STRIPE_TEST_MODE: '1',
    STRIPE_SECRET_KEY: 'rk_test_0123456789abcdefghijklmnop',
    STRIPE_API_BASE: 'http://api.stripe.com',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
  });
  expect(local.code).not.toBe(0);
  expect(problemLines(local.stderr).map((l) => l.split(' ')[0])).toEqual([
    'FIREBASE_AUTH_EMULATOR_HOST',
    'STRIPE_API_BASE',
  ]);
});

describe('secrets from files (<NAME>_FILE, as the chart and compose mount them)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'motoparts-secrets-'));
  /** Writes each value to its own file, as a mounted Secret holds it, and gives <NAME>_FILE for it. */
  const asFiles = (values: Record<string, string>): Record<string, string | undefined> => {
    const env: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(values)) {
      const file = path.join(dir, name);
      writeFileSync(file, `${value}\n`);
      env[name] = undefined;
      env[`${name}_FILE`] = file;
    }
    return env;
  };
  const secrets = () => {
    const { MONGODB_URI, JWT_SECRET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, SMTP_URL } = production();
    return { MONGODB_URI, JWT_SECRET, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, SMTP_URL } as Record<
      string,
      string
    >;
  };

  it('starts with every secret read from a file and none in the environment', async () => {
    const res = await boot(asFiles(secrets()));
    expect(res.stdout).toContain('API listening');
    expect(res.stderr).toBe('');
  });

  it('checks a value read from a file like one from the environment', async () => {
    const res = await boot(
      asFiles({ ...secrets(), JWT_SECRET: 'local-dev-secret-change-me-in-production-0123456789' }),
    );
    expect(res.code).not.toBe(0);
    expect(problemLines(res.stderr)).toEqual([expect.stringMatching(/^JWT_SECRET .*published/)]);
  });

  it('refuses a secret given twice and a file it cannot read, naming the variable', async () => {
    const twice = await boot({
      ...asFiles({ STRIPE_WEBHOOK_SECRET: `whsec_${strong()}` }),
      STRIPE_WEBHOOK_SECRET: `whsec_${strong()}`,
    });
    expect(twice.code).not.toBe(0);
    expect(twice.stdout).not.toContain('API listening');
    expect(problemLines(twice.stderr)).toEqual([
      'STRIPE_WEBHOOK_SECRET and STRIPE_WEBHOOK_SECRET_FILE are both set (give one)',
    ]);

    const missing = path.join(dir, 'not-mounted');
    const unreadable = await boot({ MONGODB_URI: undefined, MONGODB_URI_FILE: missing });
    expect(unreadable.code).not.toBe(0);
    expect(unreadable.stdout).not.toContain('API listening');
    expect(problemLines(unreadable.stderr)).toEqual([`MONGODB_URI_FILE cannot be read (${missing}: ENOENT)`]);
  });
});

it('the real Stripe API base is not a local service', async () => {
  const res = await boot({ STRIPE_API_BASE: 'https://api.stripe.com' });
  expect(res.stdout).toContain('API listening');
});

it('development (the local stack) starts with the stand-ins and its generated secrets', async () => {
  const res = await boot({
    NODE_ENV: 'development',
    FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099',
    STRIPE_API_BASE: 'http://127.0.0.1:12111',
    STRIPE_SECRET_KEY: 'sk_test_123',
  });
  expect(res.stdout).toContain('API listening');
});

it('every secret value written anywhere in the repository is refused as published', () => {
  // Tracked files only (what a clone has): any JWT_SECRET or webhook secret given a literal value.
  const root = path.join(API_DIR, '..');
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && !f.endsWith('package-lock.json') && !/\.(png|svg|jpe?g|webp|ico|woff2?)$/.test(f));
  const found = new Set<string>();
  const patterns = [/JWT_SECRET\s*[:=]\s*['"]?([\w.-]{8,})/g, /\b(whsec_\w+)/g];
  for (const file of files) {
    const text = readFileSync(path.join(root, file), 'utf8');
    for (const re of patterns) for (const m of text.matchAll(re)) if (m[1]) found.add(m[1]);
    // A file holding one secret alone (a compose secret's development value) is named after it.
    if (/(^|\/)jwt[-_]secret$/i.test(file)) found.add(text.replace(/\r?\n$/, ''));
  }
  expect(found.size).toBeGreaterThanOrEqual(4);
  const base = loadEnv({ ...production(), NODE_ENV: 'production' });
  const accepted = [...found].filter((value) => {
    const env = value.startsWith('whsec_')
      ? { ...base, STRIPE_WEBHOOK_SECRET: value }
      : { ...base, JWT_SECRET: value };
    return productionProblems(env).length === 0;
  });
  expect(accepted).toEqual([]);
});
