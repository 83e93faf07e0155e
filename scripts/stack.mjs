// Brings the whole local stack up: installs what is missing, builds, starts the stand-ins, seeds,
// starts the API and serves the four front ends. Used by `npm start` and by `npm test`.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  API_NODE_ARGS,
  DATA_DIR,
  ROOT,
  assertPortFree,
  ensureTools,
  log,
  run,
  serviceEnv,
  startAuthEmulator,
  startFerret,
  startMailpit,
  startStripeMock,
  waitForPort,
} from './services.mjs';

export const FRONT_ENDS = [
  { ws: 'shell', port: 'shell' },
  { ws: 'storefront-mfe', port: 'storefront' },
  { ws: 'auth-mfe', port: 'auth' },
  { ws: 'dashboard-mfe', port: 'dashboard' },
];

/** The remotes a team can serve with the dev server (`npm start -- --dev <remote>`). */
export const DEV_REMOTES = FRONT_ENDS.filter((f) => f.ws !== 'shell').map((f) => f.port);

/** Where `npm start -- --dev` puts the shell's development build (dist/ keeps the production one). */
export const DEV_SHELL_DIR = path.join(ROOT, 'shell', 'dist-dev');

/** Runs a command to completion, streaming nothing unless it fails (then its output is shown). */
export function exec(command, args, { cwd = ROOT, env = {}, inherit = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    if (!inherit) {
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
    }
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code === 0) resolve(out);
      else {
        if (!inherit) process.stderr.write(out);
        reject(new Error(`${command} ${args.join(' ')} failed with exit code ${code}`));
      }
    });
  });
}

/** npm packages: installs when node_modules is missing or older than the lockfile. */
export async function ensureInstalled() {
  const marker = path.join(ROOT, 'node_modules', '.package-lock.json');
  const lock = path.join(ROOT, 'package-lock.json');
  if (existsSync(marker) && statSync(marker).mtimeMs >= statSync(lock).mtimeMs) return;
  log('install', 'installing npm packages (npm ci, first run only; ~2 min)…');
  await exec('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { inherit: true });
}

function newestMtime(dir) {
  let newest = 0;
  if (!existsSync(dir)) return newest;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (
      entry.name === 'node_modules' ||
      entry.name === 'dist' ||
      entry.name === 'dist-dev' ||
      entry.name.startsWith('.')
    )
      continue;
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * The remotes' route tables a front end builds in (the shell's router is made from them): the
 * `./routes` export of each `@motoparts/*-mfe` package it depends on.
 */
function routeTablesOf(ws) {
  const { dependencies = {} } = JSON.parse(readFileSync(path.join(ROOT, ws, 'package.json'), 'utf8'));
  return Object.keys(dependencies)
    .filter((dep) => /^@motoparts\/.+-mfe$/.test(dep))
    .flatMap((dep) => {
      const remote = dep.slice('@motoparts/'.length);
      const pkg = JSON.parse(readFileSync(path.join(ROOT, remote, 'package.json'), 'utf8'));
      const source = pkg.exports?.['./routes']?.source;
      return source ? [path.join(remote, source)] : [];
    });
}

/** A front end needs a rebuild when any of its sources (or the shared kit's) is newer than dist. */
function isStale(ws) {
  const stamp = path.join(ROOT, ws, 'dist', 'index.html');
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  const inputs = [ws, 'state', 'contracts', 'scripts/webpack', ...routeTablesOf(ws)].map((p) =>
    path.join(ROOT, p),
  );
  return inputs.some(
    (p) => (existsSync(p) && statSync(p).isFile() ? statSync(p).mtimeMs : newestMtime(p)) > built,
  );
}

/**
 * tsc -b for contracts/state/api, then one webpack build per front end (two at a time). With
 * `dev` (a remote's name), the shell's development build instead of its production one, and
 * nothing for that remote: the dev server builds it.
 */
export async function buildAll({ force = false, dev } = {}) {
  log('build', 'compiling contracts, state and api (tsc -b)…');
  await exec(path.join(ROOT, 'node_modules', '.bin', 'tsc'), ['-b']);
  const built = dev ? FRONT_ENDS.filter((f) => f.ws !== 'shell' && f.port !== dev) : FRONT_ENDS;
  const todo = built.filter((f) => force || isStale(f.ws));
  if (dev) {
    const started = Date.now();
    log('build', 'webpack shell (development build, for React Fast Refresh)…');
    await buildDevShell(DEV_SHELL_DIR);
    log('build', `shell (development) built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  }
  if (todo.length === 0) {
    log('build', 'front ends are up to date');
    return;
  }
  let done = 0;
  const queue = [...todo];
  const worker = async () => {
    for (let f = queue.shift(); f; f = queue.shift()) {
      const started = Date.now();
      log('build', `webpack ${f.ws}… (${done + 1}/${todo.length} started)`);
      await exec('npm', ['run', 'build', '--silent', '-w', f.ws]);
      done += 1;
      log(
        'build',
        `${f.ws} built in ${((Date.now() - started) / 1000).toFixed(0)} s (${done}/${todo.length})`,
      );
    }
  };
  await Promise.all([worker(), worker()]);
}

/**
 * The shell's development build into `outDir`: development React (React Fast Refresh needs it)
 * and the page's React Refresh runtime (scripts/webpack/dev.cjs).
 */
export async function buildDevShell(outDir) {
  const cwd = path.join(ROOT, 'shell');
  await exec('npm', ['exec', '--', 'webpack-cli', '--mode', 'development', '--output-path', outDir], { cwd });
}

/**
 * A remote's dev server (its workspace's `npm run dev`: webpack-dev-server with hot updates and
 * React Fast Refresh) on `port`. Resolves once it answers for remoteEntry.js, its first build done.
 */
export async function startDevServer(remote, port, { quiet = false } = {}) {
  const ws = FRONT_ENDS.find((f) => f.port === remote && f.ws !== 'shell')?.ws;
  if (!ws) throw new Error(`--dev takes one of ${DEV_REMOTES.join(', ')}`);
  log('dev', `serving ${ws} with webpack-dev-server on :${port}…`);
  const child = run(
    `${remote} dev`,
    'npm',
    ['run', 'dev', '--silent', '-w', ws, '--', '--port', String(port)],
    {
      quiet,
    },
  );
  await waitForPort(port, { child, timeoutMs: 120_000 });
  // The dev server holds requests until its first build is done.
  const res = await fetch(`http://127.0.0.1:${port}/remoteEntry.js`, {
    signal: AbortSignal.timeout(180_000),
  });
  await res.body?.cancel();
  if (!res.ok) {
    process.stderr.write(child.outputTail());
    throw new Error(`${ws}'s dev server answered ${res.status} for remoteEntry.js`);
  }
  return child;
}

/**
 * The site's config with `remote` served by its dev server at `url`: the shell loads it from
 * there, and the Content-Security-Policy lets the page open the server's update socket.
 */
export function withDevRemote(config, remote, url) {
  const socket = new URL(url);
  socket.protocol = socket.protocol === 'https:' ? 'wss:' : 'ws:';
  return {
    ...config,
    remotes: { ...config.remotes, [remote]: url },
    devRemotes: { [remote]: socket.origin },
  };
}

/**
 * Serves a built front end with scripts/serve-static.mjs. The shell's page includes the remotes'
 * prerendered first screens from `fragments` (remote name → its server) and the API's site pages
 * from `siteApi` (deploy/nginx.conf).
 */
export function serveFrontEnd(ws, dist, port, configFile, { fragments = {}, siteApi, serviceToken } = {}) {
  return run(
    ws,
    'node',
    [
      path.join(ROOT, 'scripts', 'serve-static.mjs'),
      dist,
      String(port),
      '--host',
      '127.0.0.1',
      '--config',
      configFile,
      ...Object.entries(fragments).flatMap(([name, origin]) => [
        '--include',
        `/_fragments/${name}/=${origin}`,
      ]),
      // Part pages, the sitemap and robots.txt, from the API (deploy/nginx.conf).
      ...(siteApi ? ['--site-api', siteApi] : []),
    ],
    { quiet: true, env: serviceToken ? { SERVICE_TOKEN: serviceToken } : {} },
  );
}

/** What every front end reads from /config.json. Real Firebase/Stripe when their env is set. */
export function runtimeConfig(p, env = process.env) {
  const host = env.PUBLIC_HOST ?? 'localhost';
  const realFirebase = Boolean(env.FIREBASE_API_KEY);
  return {
    apiBaseUrl: env.PUBLIC_API_URL ?? `http://${host}:${p.api}`,
    shellUrl: `http://${host}:${p.shell}/`,
    remotes: {
      storefront: `http://${host}:${p.storefront}/`,
      auth: `http://${host}:${p.auth}/`,
      dashboard: `http://${host}:${p.dashboard}/`,
    },
    firebase: realFirebase
      ? {
          apiKey: env.FIREBASE_API_KEY,
          authDomain: env.FIREBASE_AUTH_DOMAIN,
          projectId: env.FIREBASE_PROJECT_ID,
          appId: env.FIREBASE_APP_ID,
        }
      : { apiKey: 'demo-api-key', authDomain: 'demo-motoparts.firebaseapp.com', projectId: 'demo-motoparts' },
    ...(realFirebase ? {} : { firebaseAuthEmulatorUrl: `http://127.0.0.1:${p.authEmulator}` }),
    stripePublishableKey: env.STRIPE_PUBLISHABLE_KEY ?? 'pk_test_motoparts_local',
  };
}

/**
 * Starts everything on the given ports and resolves with the environment the API got.
 * `quiet` keeps service logs out of the console (tests); failures still show their output.
 * `dbDir` gives FerretDB its own SQLite folder (tests), instead of `npm start`'s `.data/db`.
 */
export async function startStack(p, { quiet = false, build = true, env = process.env, dbDir, dev } = {}) {
  if (dev && !DEV_REMOTES.includes(dev)) throw new Error(`--dev takes one of ${DEV_REMOTES.join(', ')}`);
  const external = {
    db: Boolean(env.MONGODB_URI),
    auth: Boolean(env.FIREBASE_API_KEY),
    stripe: Boolean(env.STRIPE_SECRET_KEY),
    mail: Boolean(env.SMTP_URL),
  };
  const checks = [
    [p.api, 'API'],
    ...FRONT_ENDS.map((f) => [p[f.port], f.ws]),
    ...(external.db ? [] : [[p.db, 'FerretDB']]),
    ...(external.auth ? [] : [[p.authEmulator, 'Firebase Auth emulator']]),
    ...(external.stripe ? [] : [[p.stripe, 'stripe-mock']]),
    ...(external.mail
      ? []
      : [
          [p.smtp, 'Mailpit SMTP'],
          [p.mailUi, 'Mailpit HTTP API'],
        ]),
  ];
  for (const [port, what] of checks) await assertPortFree(port, what);

  await ensureInstalled();
  ensureTools();
  if (build) await buildAll({ dev });

  log('services', 'starting FerretDB, the Firebase Auth emulator, stripe-mock and Mailpit…');
  const apiEnv = { ...serviceEnv(p, { mongodbUri: env.MONGODB_URI }) };
  for (const key of [
    'FIREBASE_PROJECT_ID',
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
    'JWT_SECRET',
    'ADMIN_EMAILS',
    'MONGODB_POOL_SIZE',
    'RATE_LIMIT_EXCHANGE_IP',
    'RATE_LIMIT_EXCHANGE_USER',
    'RATE_LIMIT_ORDER',
    'RATE_LIMIT_REVIEW',
    'RATE_LIMIT_LISTING',
    'RATE_LIMIT_LISTING_ACCOUNT',
    'RATE_LIMIT_STRIPE',
    'RATE_LIMIT_CHECKOUT',
    'MAX_UNVERIFIED_OPEN_ORDERS',
    'SMTP_URL',
    'MAIL_FROM',
    'MAIL_DISABLED',
  ]) {
    if (env[key]) apiEnv[key] = env[key];
  }
  // The addresses the API writes into the site's part pages, sitemap and mails: this stack's own.
  const site = runtimeConfig(p, env);
  apiEnv.SHOP_URL = env.SHOP_URL ?? site.shellUrl;
  apiEnv.PUBLIC_API_URL = site.apiBaseUrl;
  if (env.SERVICE_TOKEN) apiEnv.SERVICE_TOKEN = env.SERVICE_TOKEN;
  if (external.auth) delete apiEnv.FIREBASE_AUTH_EMULATOR_HOST;
  if (external.stripe) delete apiEnv.STRIPE_API_BASE;
  await Promise.all([
    external.db ? null : startFerret({ port: p.db, quiet, ...(dbDir ? { dataDir: dbDir } : {}) }),
    external.auth ? null : startAuthEmulator({ port: p.authEmulator, quiet }),
    external.stripe ? null : startStripeMock({ port: p.stripe, quiet }),
    external.mail ? null : startMailpit({ smtpPort: p.smtp, uiPort: p.mailUi, quiet }),
  ]);

  log('seed', 'seeding demo parts, reviews and the two demo accounts (idempotent)…');
  await exec('node', [path.join(ROOT, 'api', 'dist', 'seed-cli.js')], { env: apiEnv });

  log('api', `starting the API on :${p.api}…`);
  // The image's node flags (heap limits, no pretenuring: see API_NODE_ARGS).
  const api = run('api', 'node', [...API_NODE_ARGS, path.join(ROOT, 'api', 'dist', 'server.js')], {
    // Development mode on the loopback interface only: this stack runs the auth emulator and
    // stripe-mock, which a production API refuses (api/src/lib/env.ts, productionProblems).
    env: {
      ...apiEnv,
      PORT: String(p.api),
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      ...(env.LOG_LEVEL ? { LOG_LEVEL: env.LOG_LEVEL } : {}),
    },
    quiet,
  });
  await waitForPort(p.api, { child: api, timeoutMs: 60_000 }).catch((err) => {
    process.stderr.write(api.outputTail());
    throw err;
  });

  mkdirSync(DATA_DIR, { recursive: true });
  const configFile = path.join(DATA_DIR, `config-${p.shell}.json`);
  // With a remote in development, the shell learns the dev server's address from config.json.
  const config = dev ? withDevRemote(site, dev, site.remotes[dev]) : site;
  writeFileSync(configFile, JSON.stringify(config, null, 2));
  for (const f of FRONT_ENDS) {
    if (f.port === dev) {
      await startDevServer(dev, p[f.port], { quiet });
      continue;
    }
    const dist = f.ws === 'shell' && dev ? DEV_SHELL_DIR : path.join(ROOT, f.ws, 'dist');
    // The shell's index.html includes the remotes' prerendered first screens (deploy/nginx.conf).
    const shell = f.ws === 'shell';
    const child = serveFrontEnd(f.ws, dist, p[f.port], configFile, {
      fragments: shell ? Object.fromEntries(DEV_REMOTES.map((r) => [r, `http://127.0.0.1:${p[r]}/`])) : {},
      siteApi: shell ? `http://127.0.0.1:${p.api}/` : undefined,
      serviceToken: shell ? apiEnv.SERVICE_TOKEN : undefined,
    });
    await waitForPort(p[f.port], { child });
  }
  return { apiEnv, configFile };
}

export function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}
