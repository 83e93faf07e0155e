// Local stand-ins for the outside services (docs/architecture.md) and the helpers to run them: used by
// `npm start`, `npm test` and the API's jest setup, so every entry point starts them the same way.
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFerretDB, go } from './ferretdb-build.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TOOLS_BIN = path.join(ROOT, '.tools', 'bin');
export const DATA_DIR = path.join(ROOT, '.data');
export const FIREBASE_PROJECT = 'demo-motoparts';

/**
 * The flags of the API's `node`, wherever it runs for real: its image (deploy/api.Dockerfile's
 * CMD, which a deploy test holds to this list), `npm start` and the benches.
 * - A 128 MB old space and 8 MB semi-spaces: peak RSS stays under 200 MB at 10,000 parts and
 *   50,000 orders, where V8's defaults grow both with garbage not yet collected.
 * - No allocation-site pretenuring: while start-up reads the catalogue and the order list nearly
 *   every new object lives on, so V8 switches allocation sites to allocate straight into the old
 *   space, and request handling shares some of those sites. Under load the old space then grew
 *   by about 9 MB/s of dead request objects, with a full collection every 2.5 s and scavenges
 *   3x slower; without it nothing is promoted and a cached part costs half the CPU
 *   (bench/api/README.md).
 */
export const API_NODE_ARGS = [
  '--max-old-space-size=128',
  '--max-semi-space-size=8',
  '--no-allocation-site-pretenuring',
];

export const DEFAULT_PORTS = {
  shell: 3000,
  storefront: 3001,
  auth: 3002,
  dashboard: 3003,
  api: 5000,
  authEmulator: 9099,
  db: 27017,
  stripe: 12111,
  smtp: 1025,
  mailUi: 8025,
};

/** Ports from the environment (PORT_API=5001, PORT_MAIL_UI=8026 …) over the defaults. */
export function ports(env = process.env) {
  const out = { ...DEFAULT_PORTS };
  for (const key of Object.keys(out)) {
    const name = `PORT_${key.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
    if (env[name]) out[key] = Number(env[name]);
  }
  return out;
}

export function log(step, message) {
  process.stdout.write(`\x1b[36m[${step}]\x1b[0m ${message}\n`);
}

/** Resolves when something accepts TCP connections on host:port, or rejects after timeoutMs. */
export async function waitForPort(port, { host = '127.0.0.1', timeoutMs = 60_000, child } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.exitCode !== null) {
      throw new Error(`${child.spawnfile} exited with code ${child.exitCode} before opening port ${port}`);
    }
    if (await canConnect(port, host)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for port ${port}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

export function canConnect(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Throws a clear message when a port we need is already taken. */
export async function assertPortFree(port, what) {
  if (await canConnect(port)) {
    throw new PortInUseError(
      `Port ${port} (${what}) is already in use. Stop whatever listens there, or set ` +
        `the matching PORT_* variable (see README) to use another port.`,
    );
  }
}

export class PortInUseError extends Error {}

/** A free TCP port chosen by the OS (for test instances that must not clash with `npm start`). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const children = new Set();

/**
 * Spawns a long-running child in its own process group, prefixes its output, and remembers it so
 * `stopAll` can end the whole tree (firebase-tools forks Java-less node workers of its own).
 */
export function run(name, command, args, { env = {}, cwd = ROOT, quiet = false } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.name = name;
  children.add(child);
  child.on('exit', () => children.delete(child));
  const prefix = `\x1b[2m${name.padEnd(10)}\x1b[0m│ `;
  let tail = '';
  const onData = (chunk) => {
    const textChunk = chunk.toString();
    tail = (tail + textChunk).slice(-4000);
    if (!quiet) {
      for (const line of textChunk.split('\n')) if (line.trim()) process.stdout.write(prefix + line + '\n');
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  child.outputTail = () => tail;
  return child;
}

export async function stopChild(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, signal);
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}

export async function stopAll() {
  await Promise.all([...children].reverse().map((c) => stopChild(c)));
}

/**
 * Builds FerretDB (patched: see ferretdb-build.mjs) and stripe-mock from our Go module when a
 * binary is missing or FerretDB's version or patches changed, and Mailpit from tools/mail.
 */
export function ensureTools() {
  const toolsDir = path.join(ROOT, 'tools');
  if (!existsSync(path.join(TOOLS_BIN, 'stripe-mock'))) {
    log('tools', 'building stripe-mock from tools/ (first run only, ~1 min cold)…');
    mkdirSync(TOOLS_BIN, { recursive: true });
    go(['build', '-o', TOOLS_BIN + path.sep, 'github.com/stripe/stripe-mock'], toolsDir);
    log('tools', 'built .tools/bin/stripe-mock');
  }
  ensureMailpit();
  const built = buildFerretDB({
    toolsDir,
    binDir: TOOLS_BIN,
    workDir: path.join(ROOT, '.tools', 'ferretdb-src'),
    onBuild: () =>
      log('tools', 'building FerretDB from tools/ with our patches (first run only, ~1 min cold)…'),
  });
  if (built) log('tools', 'built .tools/bin/ferretdb');
}

/** The Mailpit version tools/mail/go.mod pins. */
export function mailpitVersion() {
  const mod = readFileSync(path.join(ROOT, 'tools', 'mail', 'go.mod'), 'utf8');
  const m = /\sgithub\.com\/axllent\/mailpit (v[\w.+-]+)/.exec(mod);
  if (!m) throw new Error('tools/mail/go.mod does not require github.com/axllent/mailpit');
  return m[1];
}

/**
 * Builds Mailpit (the local mail server) from tools/mail, a module of its own (it needs a newer Go
 * than FerretDB's module pins), when the binary is missing or tools/mail/go.mod pins another
 * version than the one it was built from (`mailpit.stamp`). Cold: ≈ 20 s of module downloads and
 * ≈ 3 min of CPU at `-p 2`. The Go module holds no build of the web UI's JavaScript (Mailpit's
 * release builds it with npm first): the SMTP server, the HTTP API and the message views under
 * /view/ work, the web UI's page stays blank.
 */
export function ensureMailpit() {
  const version = mailpitVersion();
  const bin = path.join(TOOLS_BIN, 'mailpit');
  const stamp = path.join(TOOLS_BIN, 'mailpit.stamp');
  if (existsSync(bin) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === version) return;
  log('tools', `building Mailpit ${version} from tools/mail (first run only, a few minutes cold)…`);
  mkdirSync(TOOLS_BIN, { recursive: true });
  // A name of this process's own, swapped in by one atomic rename: an `npm test` beside a running
  // `npm start` may build at the same moment.
  const partial = `${bin}.${process.pid}`;
  go(
    [
      'build',
      '-p',
      '2',
      '-trimpath',
      '-ldflags',
      `-X github.com/axllent/mailpit/config.Version=${version}`,
      '-o',
      partial,
      'github.com/axllent/mailpit',
    ],
    path.join(ROOT, 'tools', 'mail'),
  );
  renameSync(partial, bin);
  writeFileSync(stamp, `${version}\n`);
  log('tools', `built .tools/bin/mailpit (${version})`);
}

/**
 * Builds helm and k8scheck (the deployment checks' tools) from tools/k8s, a module of its own so
 * its Kubernetes dependencies never slow the FerretDB build. Cold: ≈ 45 s of module downloads and
 * ≈ 4.5 min of CPU (one core-minute less with a warm build cache); afterwards nothing.
 */
export function ensureDeployTools() {
  const wanted = ['helm', 'k8scheck'];
  if (wanted.every((b) => existsSync(path.join(TOOLS_BIN, b)))) return;
  log('tools', 'building helm and k8scheck from tools/k8s (first run only, a few minutes cold)…');
  mkdirSync(TOOLS_BIN, { recursive: true });
  go(
    ['build', '-o', TOOLS_BIN + path.sep, 'helm.sh/helm/v3/cmd/helm', './cmd/k8scheck'],
    path.join(ROOT, 'tools', 'k8s'),
  );
  log('tools', 'built .tools/bin/helm and .tools/bin/k8scheck');
}

export async function startFerret({ port, dataDir = path.join(DATA_DIR, 'db'), quiet = true }) {
  mkdirSync(dataDir, { recursive: true });
  const child = run(
    'ferretdb',
    path.join(TOOLS_BIN, 'ferretdb'),
    ['--listen-addr', `127.0.0.1:${port}`, '--sqlite-url', `file:${dataDir}/`],
    { quiet },
  );
  await waitForPort(port, { child });
  return child;
}

export async function startStripeMock({ port, quiet = true }) {
  // It also serves HTTPS, by default on :12112 of every interface, which a second stack (npm start
  // beside npm test) could not open: we use only HTTP, so that one goes to any free local port.
  const args = ['-http-addr', `127.0.0.1:${port}`, '-https-addr', '127.0.0.1:'];
  const child = run('stripe', path.join(TOOLS_BIN, 'stripe-mock'), args, { quiet });
  await waitForPort(port, { child });
  return child;
}

/**
 * Mailpit: an SMTP server on 127.0.0.1:smtpPort that keeps every message it receives, and its HTTP
 * API (and message views) on 127.0.0.1:uiPort. Every message is kept, duplicates included (no
 * Message-ID deduplication, no pruning of old messages), in a temporary database under
 * .data/mail/ that Mailpit deletes when it stops. Mailpit also reads MP_* variables: they are
 * emptied here, so only these flags configure it.
 */
export async function startMailpit({ smtpPort, uiPort, quiet = true }) {
  const tmp = path.join(DATA_DIR, 'mail');
  mkdirSync(tmp, { recursive: true });
  const env = { TMPDIR: tmp };
  for (const name of Object.keys(process.env)) if (name.startsWith('MP_')) env[name] = '';
  const args = [
    '--smtp',
    `127.0.0.1:${smtpPort}`,
    '--listen',
    `127.0.0.1:${uiPort}`,
    // 0: no limit (Mailpit's default deletes all but the newest 500 every minute).
    '--max',
    '0',
    // No look-ups on the network: the update check asks GitHub, each SMTP connection its DNS name.
    '--disable-version-check',
    '--smtp-disable-rdns',
  ];
  const child = run('mailpit', path.join(TOOLS_BIN, 'mailpit'), args, { env, quiet });
  await Promise.all([waitForPort(smtpPort, { child }), waitForPort(uiPort, { child })]);
  return child;
}

/** The Firebase Auth emulator (no Java needed), project demo-motoparts. */
export async function startAuthEmulator({ port, quiet = true }) {
  mkdirSync(DATA_DIR, { recursive: true });
  const config = path.join(DATA_DIR, `firebase-${port}.json`);
  // The emulator's hub and log server would otherwise take 4400 and 4500 (or the next free port),
  // ports a stack on other PORT_* values may have been given for a front end, and may not yet
  // have opened: each gets a port of the OS's choosing instead.
  const hub = await freePort();
  let logging = await freePort();
  while (logging === hub) logging = await freePort();
  writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: { port, host: '127.0.0.1' },
        hub: { port: hub, host: '127.0.0.1' },
        logging: { port: logging, host: '127.0.0.1' },
        ui: { enabled: false },
        singleProjectMode: true,
      },
    }),
  );
  const firebaseBin = path.join(ROOT, 'node_modules', '.bin', 'firebase');
  const child = run(
    'auth-emu',
    firebaseBin,
    ['emulators:start', '--only', 'auth', '--project', FIREBASE_PROJECT, '--config', config],
    {
      quiet,
      // firebase-tools writes firebase-debug.log into its working directory: keep it in .data.
      cwd: DATA_DIR,
      env: {
        FIREBASE_CLI_DISABLE_UPDATE_CHECK: 'true',
        NO_UPDATE_NOTIFIER: '1',
        FIREBASE_CLI_EXPERIMENTS: '',
      },
    },
  );
  await waitForPort(port, { child, timeoutMs: 120_000 });
  return child;
}

/**
 * This checkout's own secrets for the API's tokens and the Stripe webhook signature, generated on
 * first use into .data/secrets.json (git-ignored), so no secret the API accepts is ever published.
 * `wx`: parallel first runs (npm test's stack and jest's setup) agree on one file.
 */
export function localSecrets(dataDir = DATA_DIR) {
  const file = path.join(dataDir, 'secrets.json');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    const secrets = {
      JWT_SECRET: randomBytes(36).toString('base64url'),
      STRIPE_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64url')}`,
    };
    try {
      writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { flag: 'wx', mode: 0o600 });
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The token the local shell server sends the API as one of the shop's own servers (X-Service-Token:
 * not limited as anonymous), derived from this checkout's JWT secret so secrets.json keeps its form.
 */
export function localServiceToken(secrets = localSecrets()) {
  return createHmac('sha256', secrets.JWT_SECRET).update('motoparts service token').digest('base64url');
}

/** Environment the API (and tests talking to the same services) needs for a set of ports. */
export function serviceEnv(p, { mongodbUri } = {}) {
  return {
    MONGODB_URI: mongodbUri ?? `mongodb://127.0.0.1:${p.db}/motoparts`,
    MONGODB_EMBEDDED: mongodbUri ? 'false' : 'true',
    FIREBASE_AUTH_EMULATOR_HOST: `127.0.0.1:${p.authEmulator}`,
    FIREBASE_PROJECT_ID: FIREBASE_PROJECT,
    STRIPE_API_BASE: `http://127.0.0.1:${p.stripe}`,
    STRIPE_SECRET_KEY: 'sk_test_123',
    ...localSecrets(),
    SERVICE_TOKEN: localServiceToken(),
    ADMIN_EMAILS: 'admin@motoparts.test',
    ...(p.smtp ? { SMTP_URL: `smtp://127.0.0.1:${p.smtp}` } : {}),
  };
}
