// docker-compose.yml cannot run here (no Docker engine), so both variants are rendered with
// Debian's `docker-compose config` (the same interpolation and merging `up` does) and the
// rendered YAML is checked for what a production deployment needs. `.ci/run` installs
// docker-compose.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parse } from 'yaml';
import { API_NODE_ARGS } from '../../scripts/services.mjs';

const ROOT = path.join(import.meta.dirname, '..', '..');
const FRONT_ENDS = ['shell', 'storefront', 'auth', 'dashboard'];
const STAND_INS = ['auth-emulator', 'stripe-mock', 'seed'];

/** The secrets docker-compose.yml requires, with values of the right shape. */
const SECRETS = {
  MONGO_ROOT_PASSWORD: 'root-pass-for-render',
  MOTOPARTS_DB_PASSWORD: 'app-pass-for-render',
  JWT_SECRET: 'render-only-secret-0123456789abcdef0123',
  ADMIN_EMAILS: 'ops@motoparts.example',
  FIREBASE_PROJECT_ID: 'motoparts-prod',
  STRIPE_SECRET_KEY: 'sk_live_render',
  STRIPE_WEBHOOK_SECRET: 'whsec_render',
  CORS_ORIGINS: 'https://www.motoparts.example',
  MOTOPARTS_CONFIG_JSON: './deploy/config.production.example.json',
  // A path only: `config` does not read the file (`up` bind-mounts it into the API).
  FIREBASE_SERVICE_ACCOUNT_FILE: '/etc/motoparts/firebase-service-account.json',
};

/** Where a service's compose secret is mounted: /run/secrets/<target, default the source>. */
function secretPath(service, source) {
  const entry = (service.secrets ?? [])
    .map((s) => (typeof s === 'string' ? { source: s } : s))
    .find((s) => s.source === source);
  return entry && `/run/secrets/${entry.target ?? entry.source}`;
}

/** Runs docker-compose with only PATH and the given variables (nothing leaks from this shell). */
function compose(args, env) {
  return spawnSync('docker-compose', args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME ?? '/tmp', ...env },
  });
}

function render(args, env) {
  const res = compose([...args, 'config'], env);
  assert.equal(res.status, 0, `docker-compose ${args.join(' ')} config failed:\n${res.stderr}`);
  return parse(res.stdout);
}

// Each docker-compose run costs seconds (a Python start-up): render each variant once.
const once = (fn) => {
  let value;
  return () => (value ??= fn());
};
const production = once(() => render(['-f', 'docker-compose.yml'], SECRETS));
const development = once(() =>
  render(['--env-file', 'deploy/dev.env', '-f', 'docker-compose.yml', '-f', 'docker-compose.dev.yml'], {}),
);

/** docker-compose 1.x renders short-syntax volumes as "source:target[:mode]". */
function mounts(service) {
  return (service.volumes ?? []).map((v) => {
    if (typeof v !== 'string') return v;
    const [source, target, mode] = v.split(':');
    return { source, target, read_only: mode === 'ro' };
  });
}

/** A command or healthcheck is exec form: a list whose first word is not a shell. */
function assertExecForm(what, value) {
  assert.ok(Array.isArray(value), `${what} is exec form (a list), got ${JSON.stringify(value)}`);
  const words = value[0] === 'CMD' ? value.slice(1) : value;
  assert.notEqual(value[0], 'CMD-SHELL', `${what} does not go through a shell`);
  assert.ok(!['sh', 'bash', '/bin/sh', '/bin/bash'].includes(words[0]), `${what} does not start a shell`);
}

function assertRunsAsNonRoot(name, service) {
  const dockerfile = service.build?.dockerfile;
  if (service.user !== undefined) {
    assert.doesNotMatch(String(service.user), /^(0|root)(:|$)/, `${name} does not run as root`);
    return;
  }
  assert.ok(dockerfile, `${name} sets a user or builds an image that does`);
  const text = readFileSync(path.join(ROOT, dockerfile), 'utf8');
  const users = [...text.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
  assert.ok(users.length > 0, `${dockerfile} switches to a user`);
  assert.doesNotMatch(users.at(-1), /^(0|root)(:|$)/, `${dockerfile} ends as a non-root user`);
}

describe('docker-compose.yml (production)', () => {
  test('stops at once naming each missing secret; an empty value counts as missing', () => {
    // Every use of a secret is `${NAME:?message naming NAME}`: never a default that would bring
    // a stand-in back when the operator leaves it out or empty.
    const raw = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
    for (const name of Object.keys(SECRETS)) {
      const uses = [...raw.matchAll(new RegExp(`\\$\\{${name}(:?[-?+]?)([^}]*)\\}`, 'g'))];
      assert.ok(uses.length > 0, `docker-compose.yml uses ${name}`);
      for (const [whole, op, message] of uses) {
        assert.equal(op, ':?', `${whole} fails when ${name} is unset or empty`);
        assert.match(message, new RegExp(`^set ${name}\\b`), `${whole} names ${name}`);
      }
    }
    // And docker-compose really stops: one secret missing, then one empty.
    const withoutJwt = { ...SECRETS };
    delete withoutJwt.JWT_SECRET;
    const missing = compose(['-f', 'docker-compose.yml', 'config', '-q'], withoutJwt);
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /set JWT_SECRET \(32\+ random characters\)/);
    const empty = compose(['-f', 'docker-compose.yml', 'config', '-q'], {
      ...SECRETS,
      STRIPE_SECRET_KEY: '',
    });
    assert.notEqual(empty.status, 0);
    assert.match(empty.stderr, /set STRIPE_SECRET_KEY/);
    // The Firebase service account is a file: without its path nothing starts either.
    const withoutAccount = { ...SECRETS };
    delete withoutAccount.FIREBASE_SERVICE_ACCOUNT_FILE;
    const noAccount = compose(['-f', 'docker-compose.yml', 'config', '-q'], withoutAccount);
    assert.notEqual(noAccount.status, 0);
    assert.match(
      noAccount.stderr,
      /set FIREBASE_SERVICE_ACCOUNT_FILE \(path of the Firebase Admin service-account JSON\)/,
    );
  });

  test('the API gets the Firebase Admin service account as a secret file, found by ADC', () => {
    // firebase-admin (initializeApp without a credential) reads Firebase accounts with Google
    // Application Default Credentials: GOOGLE_APPLICATION_CREDENTIALS names the key file.
    const { services, secrets } = production();
    const [name, secret] =
      Object.entries(secrets ?? {}).find(([, s]) => s.file === SECRETS.FIREBASE_SERVICE_ACCOUNT_FILE) ?? [];
    assert.ok(name, 'a top-level secret reads the file FIREBASE_SERVICE_ACCOUNT_FILE names');
    assert.equal(secret.external, undefined, 'a file secret, not an external (Swarm) one');
    const mounted = secretPath(services.api, name);
    assert.ok(mounted, `the API mounts secret ${name}`);
    assert.equal(services.api.environment.GOOGLE_APPLICATION_CREDENTIALS, mounted);
    for (const other of ['mongo', ...FRONT_ENDS]) {
      assert.equal(secretPath(services[other], name), undefined, `${other} does not get the key`);
    }
    // Never an environment value or a volume: the key's content stays out of `docker inspect`.
    const text = JSON.stringify(services);
    assert.ok(!text.includes(SECRETS.FIREBASE_SERVICE_ACCOUNT_FILE), 'the path is only the secret source');
  });

  test('MongoDB with authentication, the API and the four front ends; no stand-in, no seed', () => {
    const { services } = production();
    assert.deepEqual(Object.keys(services).sort(), ['api', ...FRONT_ENDS, 'mongo'].sort());
    for (const name of STAND_INS) assert.equal(services[name], undefined, `${name} is not in production`);

    const mongo = services.mongo;
    assert.match(mongo.image, /^mongo:7(\.|$)/);
    assert.equal(mongo.environment.MONGO_INITDB_ROOT_PASSWORD, SECRETS.MONGO_ROOT_PASSWORD);
    const initDir = mounts(mongo).find((v) => v.target === '/docker-entrypoint-initdb.d');
    assert.ok(initDir, 'an init script folder makes the application user');
    const init = readFileSync(path.join(ROOT, 'deploy', 'mongo-init', '10-app-user.js'), 'utf8');
    assert.match(init, /createUser\(/);
    assert.match(init, /role: 'readWrite', db: 'motoparts'/);

    const api = services.api.environment;
    assert.equal(api.NODE_ENV, 'production');
    assert.equal(
      api.MONGODB_URI,
      `mongodb://motoparts:${SECRETS.MOTOPARTS_DB_PASSWORD}@mongo:27017/motoparts?authSource=motoparts`,
      'the API logs in as the application user',
    );
    for (const stand of ['FIREBASE_AUTH_EMULATOR_HOST', 'STRIPE_API_BASE', 'ALLOW_LOCAL_SERVICES']) {
      assert.ok(!api[stand], `production sets no ${stand}`);
    }
    for (const name of FRONT_ENDS) {
      const mount = mounts(services[name]).find((v) => v.target === '/usr/share/nginx/html/config.json');
      assert.ok(
        mount?.source.endsWith('deploy/config.production.example.json'),
        `${name} gets the operator's config.json`,
      );
    }
    const text = JSON.stringify(services);
    assert.doesNotMatch(text, /seed-cli|auth-emulator|stripe-mock|admin@motoparts\.test/);
  });

  test('every service: healthcheck, exec-form commands, init or exec-form, non-root, waits on health', () => {
    const { services } = production();
    for (const [name, service] of Object.entries(services)) {
      assert.ok(service.healthcheck?.test, `${name} has a healthcheck`);
      assert.notEqual(service.healthcheck.disable, true, `${name}'s healthcheck is on`);
      assertExecForm(`${name} healthcheck`, service.healthcheck.test);
      if (service.command !== undefined) assertExecForm(`${name} command`, service.command);
      if (service.entrypoint !== undefined) assertExecForm(`${name} entrypoint`, service.entrypoint);
      assertRunsAsNonRoot(name, service);
      for (const [dep, how] of Object.entries(service.depends_on ?? {})) {
        assert.equal(how.condition, 'service_healthy', `${name} waits until ${dep} is healthy`);
      }
      if (name !== 'mongo')
        assert.equal(service.init, true, `${name} runs under an init (signals reach node/nginx)`);
    }
    assert.ok(services.api.depends_on.mongo, 'the API waits for MongoDB');
    assert.ok(services.shell.depends_on.api, 'the shell waits for the API');
  });

  test('images: Node 22 or 24 LTS, exec-form CMD, no seed, production builds without served maps', () => {
    for (const file of ['api.Dockerfile', 'frontend.Dockerfile', 'auth-emulator.Dockerfile']) {
      const text = readFileSync(path.join(ROOT, 'deploy', file), 'utf8');
      for (const m of text.matchAll(/^FROM\s+node:(\d+)/gm)) {
        assert.ok(['22', '24'].includes(m[1]), `${file} uses a current LTS Node, not ${m[1]}`);
      }
      for (const m of text.matchAll(/^CMD\s+(\S.*)$/gm)) assertExecForm(`${file} CMD`, JSON.parse(m[1]));
      for (const m of text.matchAll(/^(RUN|CMD|ENTRYPOINT)\s+(\S.*)$/gm)) {
        assert.doesNotMatch(m[2], /seed/, `${file} never seeds`);
      }
    }
    // The API runs in its image with the flags it is measured and started with locally.
    const apiImage = readFileSync(path.join(ROOT, 'deploy', 'api.Dockerfile'), 'utf8');
    const apiCmd = [...apiImage.matchAll(/^CMD\s+(\S.*)$/gm)].map((m) => JSON.parse(m[1]));
    assert.deepEqual(apiCmd, [['node', ...API_NODE_ARGS, 'api/dist/server.js']]);
    const frontend = readFileSync(path.join(ROOT, 'deploy', 'frontend.Dockerfile'), 'utf8');
    assert.match(frontend, /npm run build -w \$\{WORKSPACE\}/);
    assert.match(frontend, /find \$\{WORKSPACE\}\/dist -name '\*\.map' -delete/);
    for (const ws of ['shell', 'storefront-mfe', 'auth-mfe', 'dashboard-mfe']) {
      const pkg = JSON.parse(readFileSync(path.join(ROOT, ws, 'package.json'), 'utf8'));
      assert.match(pkg.scripts.build, /--mode production/, `${ws}'s build is a production build`);
    }
    // The policy is computed at container start from the mounted config.json, by scripts/csp.mjs.
    assert.match(frontend, /COPY scripts\/csp\.mjs \/opt\/motoparts\/csp\.mjs/);
    assert.match(frontend, /deploy\/csp\.envsh \/docker-entrypoint\.d\/\d+-csp\.envsh/);
    const ignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
    // releases/: scripts/publish-remote.mjs's output, uploaded to the CDN, never built from.
    for (const entry of ['**/node_modules', '**/dist', '.git', '.tools', '.data', 'releases']) {
      assert.ok(ignore.includes(entry), `.dockerignore leaves out ${entry}`);
    }
  });
});

describe('docker-compose.dev.yml (local stand-ins)', () => {
  test('adds the emulator, stripe-mock, a matching config.json and a one-off seed', () => {
    const { services } = development();
    for (const name of STAND_INS) assert.ok(services[name], `${name} is in the dev variant`);
    const api = services.api;
    // Development mode: production mode would refuse the stand-ins and dev.env's published secrets.
    assert.equal(api.environment.NODE_ENV, 'development');
    assert.equal(services.seed.environment.NODE_ENV, 'development');
    assert.equal(api.environment.FIREBASE_AUTH_EMULATOR_HOST, 'auth-emulator:9099');
    assert.equal(api.environment.STRIPE_API_BASE, 'http://stripe-mock:12111');
    assert.equal(api.depends_on.seed.condition, 'service_completed_successfully');
    assert.equal(api.depends_on['auth-emulator'].condition, 'service_healthy');
    assert.equal(api.depends_on['stripe-mock'].condition, 'service_healthy');
    // No service account locally: dev.env satisfies the production file's required secret with
    // /dev/null, and the overlay empties GOOGLE_APPLICATION_CREDENTIALS (the emulator needs none).
    assert.equal(development().secrets['firebase-service-account'].file, '/dev/null');
    assert.equal(api.environment.GOOGLE_APPLICATION_CREDENTIALS, '');

    const seed = services.seed;
    assert.deepEqual(seed.command, ['node', 'api/dist/seed-cli.js']);
    assert.equal(seed.restart, 'no');
    assert.equal(seed.environment.FIREBASE_AUTH_EMULATOR_HOST, 'auth-emulator:9099');
    assert.equal(seed.environment.MONGODB_URI, api.environment.MONGODB_URI);

    const config = JSON.parse(readFileSync(path.join(ROOT, 'deploy', 'config.compose.json'), 'utf8'));
    assert.equal(config.firebaseAuthEmulatorUrl, 'http://localhost:9099');
    for (const name of FRONT_ENDS) {
      const configs = mounts(services[name]).filter((v) => v.target === '/usr/share/nginx/html/config.json');
      assert.equal(configs.length, 1, `${name} mounts one config.json`);
      assert.ok(configs[0].source.endsWith('deploy/config.compose.json'));
      assert.ok(configs[0].read_only);
    }
    for (const [name, service] of Object.entries(services)) {
      if (name === 'seed') continue; // a one-off job: it exits, nothing waits on its health
      assert.ok(service.healthcheck?.test, `${name} has a healthcheck`);
      assertExecForm(`${name} healthcheck`, service.healthcheck.test);
      assert.equal(service.init ?? name === 'mongo', true, `${name} runs under an init`);
    }
  });
});

describe('deploy/csp.envsh (the front-end image computes its CSP at start)', () => {
  test('exports the policy scripts/csp.mjs derives from the mounted config.json and index.html', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'csp-envsh-'));
    const config = {
      apiBaseUrl: 'https://api.shop.example',
      shellUrl: 'https://shop.example',
      remotes: { storefront: 'https://cdn.shop.example/storefront/1.2.0/remoteEntry.js' },
    };
    writeFileSync(path.join(root, 'config.json'), JSON.stringify(config));
    writeFileSync(path.join(root, 'index.html'), '<html><style>b{}</style><script>1</script></html>');
    const env = {
      PATH: process.env.PATH,
      MOTOPARTS_HTML_ROOT: root,
      MOTOPARTS_CSP_SCRIPT: path.join(ROOT, 'scripts', 'csp.mjs'),
    };
    const script = path.join(ROOT, 'deploy', 'csp.envsh');
    const res = spawnSync('sh', ['-c', `. "${script}" && printf %s "$CSP_POLICY"`], {
      env,
      encoding: 'utf8',
    });
    assert.equal(res.status, 0, res.stderr);
    const expected = spawnSync('node', [env.MOTOPARTS_CSP_SCRIPT, path.join(root, 'config.json'), root], {
      encoding: 'utf8',
    }).stdout.trim();
    assert.equal(res.stdout, expected);
    assert.match(res.stdout, /connect-src [^;]*https:\/\/api\.shop\.example/);
    assert.match(res.stdout, /script-src [^;]*'sha256-/);
    assert.match(res.stdout, /frame-ancestors 'none'/);
    // An operator's own policy wins; a missing config.json stops the container with a message.
    const own = spawnSync('sh', ['-c', `. "${script}" && printf %s "$CSP_POLICY"`], {
      env: { ...env, CSP_POLICY: "default-src 'self'" },
      encoding: 'utf8',
    });
    assert.equal(own.stdout, "default-src 'self'");
    const broken = spawnSync('sh', ['-c', `. "${script}"`], {
      env: { ...env, MOTOPARTS_HTML_ROOT: path.join(root, 'missing') },
      encoding: 'utf8',
    });
    assert.notEqual(broken.status, 0);
    assert.match(broken.stderr, /cannot compute the Content-Security-Policy/);
  });
});
