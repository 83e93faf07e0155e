// docker-compose.yml cannot run here (no Docker engine), so both variants are rendered with
// Debian's `docker-compose config` (the same interpolation and merging `up` does) and the
// rendered YAML is checked for what a production deployment needs. `.ci/run` installs
// docker-compose.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runInNewContext } from 'node:vm';
import { parse } from 'yaml';
import { API_NODE_ARGS, mailpitVersion } from '../../scripts/services.mjs';

const ROOT = path.join(import.meta.dirname, '..', '..');
const FRONT_ENDS = ['shell', 'storefront', 'auth', 'dashboard'];
const STAND_INS = ['auth-emulator', 'stripe-mock', 'mailpit', 'seed'];

/**
 * What docker-compose.yml requires: settings, and every secret as the path of its file. `config`
 * reads none of the files (`up` bind-mounts them), so the paths need not exist here.
 */
const SECRETS = {
  ADMIN_EMAILS: 'ops@motoparts.example',
  FIREBASE_PROJECT_ID: 'motoparts-prod',
  CORS_ORIGINS: 'https://www.motoparts.example',
  MOTOPARTS_CONFIG_JSON: './deploy/config.production.example.json',
  MONGO_ROOT_PASSWORD_FILE: '/etc/motoparts/secrets/mongo-root-password',
  MOTOPARTS_DB_PASSWORD_FILE: '/etc/motoparts/secrets/motoparts-db-password',
  MONGODB_URI_FILE: '/etc/motoparts/secrets/mongodb-uri',
  JWT_SECRET_FILE: '/etc/motoparts/secrets/jwt-secret',
  STRIPE_SECRET_KEY_FILE: '/etc/motoparts/secrets/stripe-secret-key',
  STRIPE_WEBHOOK_SECRET_FILE: '/etc/motoparts/secrets/stripe-webhook-secret',
  SMTP_URL_FILE: '/etc/motoparts/secrets/smtp-url',
  MAIL_FROM: 'MotoParts <orders@motoparts.example>',
  FIREBASE_SERVICE_ACCOUNT_FILE: '/etc/motoparts/firebase-service-account.json',
};

/**
 * Each secret file (by the variable naming it), the services that mount it and the variable each
 * of them reads it through. No other service mounts it.
 */
const SECRET_READERS = {
  MONGO_ROOT_PASSWORD_FILE: { mongo: 'MONGO_INITDB_ROOT_PASSWORD_FILE' },
  MOTOPARTS_DB_PASSWORD_FILE: { mongo: 'MOTOPARTS_DB_PASSWORD_FILE' },
  MONGODB_URI_FILE: { api: 'MONGODB_URI_FILE', seed: 'MONGODB_URI_FILE' },
  JWT_SECRET_FILE: { api: 'JWT_SECRET_FILE', seed: 'JWT_SECRET_FILE' },
  STRIPE_SECRET_KEY_FILE: { api: 'STRIPE_SECRET_KEY_FILE', seed: 'STRIPE_SECRET_KEY_FILE' },
  STRIPE_WEBHOOK_SECRET_FILE: { api: 'STRIPE_WEBHOOK_SECRET_FILE', seed: 'STRIPE_WEBHOOK_SECRET_FILE' },
  // The seed sends no mail.
  SMTP_URL_FILE: { api: 'SMTP_URL_FILE' },
  // firebase-admin reads its key through Application Default Credentials.
  FIREBASE_SERVICE_ACCOUNT_FILE: { api: 'GOOGLE_APPLICATION_CREDENTIALS' },
};

/** Variables that would hold a secret's value in a container's environment: never set. */
const SECRET_VALUES = [
  'MONGODB_URI',
  'JWT_SECRET',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'SMTP_URL',
  'MONGO_INITDB_ROOT_PASSWORD',
  'MOTOPARTS_DB_PASSWORD',
];

/** The variables the API reads from a file as <NAME>_FILE (FILE_VARIABLES in api/src/lib/env.ts). */
function apiFileVariables() {
  const source = readFileSync(path.join(ROOT, 'api', 'src', 'lib', 'env.ts'), 'utf8');
  const list = /export const FILE_VARIABLES = \[([^\]]*)\]/.exec(source);
  assert.ok(list, 'api/src/lib/env.ts exports FILE_VARIABLES');
  return [...list[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
}

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
const DEV_ARGS = ['--env-file', 'deploy/dev.env', '-f', 'docker-compose.yml', '-f', 'docker-compose.dev.yml'];
const development = once(() => render(DEV_ARGS, {}));

/** A service's published ports as { address, published, target }; docker-compose 1.x writes both forms. */
function published(service) {
  return (service.ports ?? []).map((p) => {
    if (typeof p !== 'string')
      return { address: p.host_ip ?? '0.0.0.0', published: p.published, target: p.target };
    const parts = p.replace(/\/\w+$/, '').split(':');
    if (parts.length === 3)
      return { address: parts[0], published: Number(parts[1]), target: Number(parts[2]) };
    if (parts.length === 2)
      return { address: '0.0.0.0', published: Number(parts[0]), target: Number(parts[1]) };
    return { address: '0.0.0.0', published: undefined, target: Number(parts[0]) };
  });
}

/** Bytes of a compose memory value (`256m`, `1g`, a number of bytes). */
function bytes(value) {
  const m = /^(\d+(?:\.\d+)?)([kmg]?)b?$/i.exec(String(value));
  assert.ok(m, `a memory size: ${value}`);
  return Number(m[1]) * 1024 ** ' kmg'.indexOf(m[2].toLowerCase() || ' ');
}

/** cap_drop ALL and nothing added back, no-new-privileges, a memory limit: every service of a variant. */
function assertHardened(variant, services) {
  for (const [name, service] of Object.entries(services)) {
    assert.deepEqual(service.cap_drop, ['ALL'], `${variant}: ${name} drops every capability`);
    assert.equal(service.cap_add, undefined, `${variant}: ${name} adds none back (none needs one)`);
    assert.ok(service.privileged !== true, `${variant}: ${name} is not privileged`);
    assert.ok(
      (service.security_opt ?? []).some((o) => /^no-new-privileges(:true)?$/.test(o)),
      `${variant}: ${name} runs with no-new-privileges`,
    );
    assert.ok(service.mem_limit !== undefined, `${variant}: ${name} has a memory limit`);
    assert.ok(bytes(service.mem_limit) >= 64 * 1024 ** 2, `${variant}: ${name}'s limit is a real size`);
  }
}

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

/**
 * Every secret of SECRET_READERS is a file secret from the path `given` names, mounted into exactly
 * the services of the variant that read it, each through its variable; no secret value is in any
 * service's environment, and the host paths appear only as the secrets' sources.
 */
function assertSecretFiles({ services, secrets }, given) {
  for (const [variable, readers] of Object.entries(SECRET_READERS)) {
    const [name, secret] =
      Object.entries(secrets ?? {}).find(([, s]) => s.file === path.resolve(ROOT, given[variable])) ?? [];
    assert.ok(name, `a top-level secret reads the file ${variable} names`);
    assert.equal(secret.external, undefined, `${name} is a file secret, not an external (Swarm) one`);
    for (const [service, config] of Object.entries(services)) {
      const mounted = secretPath(config, name);
      const reader = readers[service];
      if (!reader) {
        assert.equal(mounted, undefined, `${service} does not get ${name}`);
        continue;
      }
      assert.ok(mounted, `${service} mounts ${name}`);
      // /dev/null: the dev stack's Firebase key, which the emulator does not need; the overlay
      // empties the variable (checked by its own test).
      if (given[variable] === '/dev/null') continue;
      assert.equal(config.environment[reader], mounted, `${service} reads ${name} through ${reader}`);
    }
  }
  // The API reads every variable it can take from a file that way.
  for (const name of apiFileVariables()) {
    assert.match(
      services.api.environment[`${name}_FILE`] ?? '',
      /^\/run\/secrets\//,
      `the API reads ${name} from a secret file`,
    );
  }
  for (const [service, config] of Object.entries(services)) {
    for (const name of SECRET_VALUES) {
      assert.equal(config.environment?.[name], undefined, `${service} has no ${name} in its environment`);
    }
  }
  const text = JSON.stringify(services);
  for (const variable of Object.keys(SECRET_READERS)) {
    if (given[variable] === '/dev/null') continue;
    assert.ok(
      !text.includes(path.resolve(ROOT, given[variable])),
      `${variable}'s file is only a secret's source`,
    );
  }
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
    delete withoutJwt.JWT_SECRET_FILE;
    const missing = compose(['-f', 'docker-compose.yml', 'config', '-q'], withoutJwt);
    assert.notEqual(missing.status, 0);
    assert.match(
      missing.stderr,
      /set JWT_SECRET_FILE \(path of the API's token secret, 32\+ random characters\)/,
    );
    const empty = compose(['-f', 'docker-compose.yml', 'config', '-q'], {
      ...SECRETS,
      STRIPE_SECRET_KEY_FILE: '',
    });
    assert.notEqual(empty.status, 0);
    assert.match(empty.stderr, /set STRIPE_SECRET_KEY_FILE/);
    const withoutAccount = { ...SECRETS };
    delete withoutAccount.FIREBASE_SERVICE_ACCOUNT_FILE;
    const noAccount = compose(['-f', 'docker-compose.yml', 'config', '-q'], withoutAccount);
    assert.notEqual(noAccount.status, 0);
    assert.match(
      noAccount.stderr,
      /set FIREBASE_SERVICE_ACCOUNT_FILE \(path of the Firebase Admin service-account JSON\)/,
    );
  });

  test('every secret is a file secret, mounted only into the services that read it through a *_FILE variable', () => {
    assertSecretFiles(production(), SECRETS);
  });

  test("MongoDB's init script makes the API's user with the password of its secret file", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mongo-init-'));
    const file = path.join(dir, 'motoparts-db-password');
    writeFileSync(file, 'app-pass-from-file\n');
    const script = readFileSync(path.join(ROOT, 'deploy', 'mongo-init', '10-app-user.js'), 'utf8');
    // mongosh's globals, as the mongo image's entrypoint runs the script against the new database.
    const created = [];
    const shell = (env) => ({
      require: createRequire(import.meta.url),
      process: { env },
      print: () => {},
      db: { getSiblingDB: (db) => ({ createUser: (user) => created.push({ db, ...user }) }) },
    });
    runInNewContext(script, shell({ MOTOPARTS_DB_PASSWORD_FILE: file }));
    assert.deepEqual(JSON.parse(JSON.stringify(created)), [
      {
        db: 'motoparts',
        user: 'motoparts',
        pwd: 'app-pass-from-file',
        roles: [{ role: 'readWrite', db: 'motoparts' }],
      },
    ]);
    assert.throws(() => runInNewContext(script, shell({})), /MOTOPARTS_DB_PASSWORD_FILE is not set/);
    writeFileSync(file, '\n');
    assert.throws(() => runInNewContext(script, shell({ MOTOPARTS_DB_PASSWORD_FILE: file })), /empty file/);
    assert.equal(created.length, 1, 'no user without a password');
  });

  test('every service: no capability, no-new-privileges, a memory limit', () => {
    assertHardened('production', production().services);
  });

  test("mail: the API's SMTP_URL is a secret file, MAIL_FROM is required, MAIL_DISABLED=1 is the operator's word", () => {
    const { services } = production();
    const api = services.api.environment;
    assert.equal(api.SMTP_URL_FILE, secretPath(services.api, 'smtp-url'));
    assert.equal(api.SMTP_URL, undefined, 'the URL (and its password) is not in the environment');
    assert.equal(api.MAIL_FROM, SECRETS.MAIL_FROM);
    // Mail is on unless the operator turns it off: production then refuses to start without it.
    assert.equal(api.MAIL_DISABLED, '0');
    const off = render(['-f', 'docker-compose.yml'], {
      ...SECRETS,
      MAIL_DISABLED: '1',
      SMTP_URL_FILE: '/dev/null',
    });
    assert.equal(off.services.api.environment.MAIL_DISABLED, '1');
    assert.equal(off.secrets['smtp-url'].file, '/dev/null');
    const withoutSmtp = { ...SECRETS };
    delete withoutSmtp.SMTP_URL_FILE;
    const missing = compose(['-f', 'docker-compose.yml', 'config', '-q'], withoutSmtp);
    assert.notEqual(missing.status, 0);
    assert.match(missing.stderr, /set SMTP_URL_FILE \(path of the API's SMTP server URL/);
    const withoutFrom = { ...SECRETS };
    delete withoutFrom.MAIL_FROM;
    const noFrom = compose(['-f', 'docker-compose.yml', 'config', '-q'], withoutFrom);
    assert.notEqual(noFrom.status, 0);
    assert.match(noFrom.stderr, /set MAIL_FROM \(the sender of the API's mail/);
  });

  test('published ports are on the loopback address unless PUBLISH_ADDRESS opens them', () => {
    const { services } = production();
    const ports = Object.entries(services).flatMap(([name, s]) => published(s).map((p) => ({ name, ...p })));
    assert.deepEqual(
      ports.map((p) => p.name).sort(),
      ['api', ...FRONT_ENDS].sort(),
      'MongoDB is not published',
    );
    for (const p of ports)
      assert.equal(p.address, '127.0.0.1', `${p.name} publishes ${p.published} on 127.0.0.1`);
    const open = render(['-f', 'docker-compose.yml'], { ...SECRETS, PUBLISH_ADDRESS: '0.0.0.0' }).services;
    for (const name of ['api', ...FRONT_ENDS]) {
      assert.deepEqual(
        published(open[name]).map((p) => p.address),
        ['0.0.0.0'],
        `${name} is published where PUBLISH_ADDRESS says`,
      );
    }
  });

  test('MongoDB with authentication, the API and the four front ends; no stand-in, no seed', () => {
    const { services } = production();
    assert.deepEqual(Object.keys(services).sort(), ['api', ...FRONT_ENDS, 'mongo'].sort());
    for (const name of STAND_INS) assert.equal(services[name], undefined, `${name} is not in production`);

    const mongo = services.mongo;
    assert.match(mongo.image, /^mongo:7(\.|$)/);
    // Authentication on: the image's entrypoint makes the administrator from these.
    assert.equal(mongo.environment.MONGO_INITDB_ROOT_USERNAME, 'root');
    assert.equal(mongo.environment.MONGO_INITDB_ROOT_PASSWORD_FILE, secretPath(mongo, 'mongo-root-password'));
    const initDir = mounts(mongo).find((v) => v.target === '/docker-entrypoint-initdb.d');
    assert.ok(initDir, 'an init script folder makes the application user');
    assert.ok(initDir.source.endsWith('deploy/mongo-init') && initDir.read_only);

    const api = services.api.environment;
    assert.equal(api.NODE_ENV, 'production');
    for (const stand of ['FIREBASE_AUTH_EMULATOR_HOST', 'STRIPE_API_BASE', 'ALLOW_LOCAL_SERVICES']) {
      assert.ok(!api[stand], `production sets no ${stand}`);
    }
    // A Stripe test key is refused unless the operator declares a staging deployment.
    assert.equal(api.STRIPE_TEST_MODE, '0');
    assert.equal(
      render(['-f', 'docker-compose.yml'], { ...SECRETS, STRIPE_TEST_MODE: '1' }).services.api.environment
        .STRIPE_TEST_MODE,
      '1',
    );
    for (const name of FRONT_ENDS) {
      const mount = mounts(services[name]).find((v) => v.target === '/usr/share/nginx/html/config.json');
      assert.ok(
        mount?.source.endsWith('deploy/config.production.example.json'),
        `${name} gets the operator's config.json`,
      );
    }
    const text = JSON.stringify(services);
    assert.doesNotMatch(text, /seed-cli|auth-emulator|stripe-mock|mailpit|admin@motoparts\.test/);
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
    // The service token from a mounted file, read before nginx fills in its template (20-…).
    assert.match(frontend, /deploy\/service-token\.envsh \/docker-entrypoint\.d\/1\d-service-token\.envsh/);
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
    assert.equal(seed.environment.MONGODB_URI_FILE, api.environment.MONGODB_URI_FILE);

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

  test("Mailpit, pinned to tools/mail's version, keeps every message the API sends", () => {
    const { services } = development();
    const mailpit = services.mailpit;
    assert.equal(mailpit.image, `axllent/mailpit:${mailpitVersion()}`, 'the version npm start builds');
    assert.equal(mailpit.environment.MP_MAX_MESSAGES, '0', 'no pruning of older messages');
    for (const name of Object.keys(mailpit.environment)) {
      assert.doesNotMatch(name, /DUPLICATE|TAG|RELAY|FORWARD/, `${name}: messages arrive as sent`);
    }
    assert.doesNotMatch(String(mailpit.user), /^(0|root)(:|$)/, 'Mailpit does not run as root');
    assert.equal(mailpit.read_only, true);
    assert.deepEqual(mailpit.healthcheck.test, ['CMD', '/mailpit', 'readyz']);
    const api = services.api;
    assert.equal(api.depends_on.mailpit.condition, 'service_healthy');
    assert.equal(api.environment.MAIL_DISABLED, '0');
    // The API reads its SMTP server from the secret file, as in production: the overlay's Mailpit.
    const dev = readFileSync(path.join(ROOT, 'deploy', 'dev.env'), 'utf8');
    const file = /^SMTP_URL_FILE=(.+)$/m.exec(dev)?.[1];
    assert.ok(file, 'deploy/dev.env names the SMTP_URL file');
    const url = new URL(readFileSync(path.resolve(ROOT, file), 'utf8').trim());
    assert.equal(`${url.protocol}//${url.host}`, 'smtp://mailpit:1025');
    assert.equal(api.environment.SMTP_URL_FILE, secretPath(api, 'smtp-url'));
  });

  test("secrets: deploy/dev.env's published files, mounted and read as in production", () => {
    const dev = Object.fromEntries(
      readFileSync(path.join(ROOT, 'deploy', 'dev.env'), 'utf8')
        .split('\n')
        .filter((l) => /^\w+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    assertSecretFiles(development(), dev);
    // The API's user in MongoDB is made with the password its URI holds.
    const text = (variable) => readFileSync(path.resolve(ROOT, dev[variable]), 'utf8').replace(/\n$/, '');
    const uri = new URL(text('MONGODB_URI_FILE'));
    assert.equal(decodeURIComponent(uri.password), text('MOTOPARTS_DB_PASSWORD_FILE'));
    assert.equal(`${uri.username}@${uri.host}${uri.pathname}`, 'motoparts@mongo:27017/motoparts');
  });

  test('every service, the stand-ins and the seed too: no capability, no-new-privileges, a memory limit', () => {
    assertHardened('development', development().services);
  });

  test('every published port is on 127.0.0.1; the stand-ins stay there whatever PUBLISH_ADDRESS says', () => {
    const published_ = (services) =>
      Object.entries(services).flatMap(([name, s]) => published(s).map((p) => ({ name, ...p })));
    const ports = published_(development().services);
    assert.deepEqual(
      [...new Set(ports.map((p) => p.name))].sort(),
      ['api', 'auth-emulator', 'stripe-mock', 'mailpit', ...FRONT_ENDS].sort(),
    );
    for (const p of ports)
      assert.equal(p.address, '127.0.0.1', `${p.name} publishes ${p.published} on 127.0.0.1`);
    const open = published_(render(DEV_ARGS, { PUBLISH_ADDRESS: '0.0.0.0' }).services);
    for (const p of open.filter((q) => ['auth-emulator', 'stripe-mock', 'mailpit'].includes(q.name))) {
      assert.equal(p.address, '127.0.0.1', `${p.name} is never published beyond this host`);
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
    // Hosted photos are served by the API; no whole scheme is allowed for images.
    assert.match(res.stdout, /img-src [^;]*https:\/\/api\.shop\.example/);
    assert.doesNotMatch(res.stdout, /img-src [^;]*\shttps:(\s|;|$)/);
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

describe('a canary release set through Compose (deploy/site-config.envsh)', () => {
  const FRONT_ENDS = ['shell', 'storefront', 'auth', 'dashboard'];

  test('the canary variables reach every front end, empty unless set', () => {
    const unset = production().services;
    for (const name of FRONT_ENDS) {
      assert.equal(unset[name].environment.DASHBOARD_CANARY_URL, '', `${name}: no canary by default`);
      assert.equal(unset[name].environment.DASHBOARD_CANARY_PERCENT, '');
    }
    const set = render(['-f', 'docker-compose.yml'], {
      ...SECRETS,
      DASHBOARD_CANARY_URL: 'https://cdn.shop.example/dashboard/2.2.0/',
      DASHBOARD_CANARY_PERCENT: '10',
    }).services;
    for (const name of FRONT_ENDS) {
      assert.equal(set[name].environment.DASHBOARD_CANARY_URL, 'https://cdn.shop.example/dashboard/2.2.0/');
      assert.equal(set[name].environment.DASHBOARD_CANARY_PERCENT, '10');
    }
    const frontend = readFileSync(path.join(ROOT, 'deploy', 'frontend.Dockerfile'), 'utf8');
    assert.match(frontend, /COPY scripts\/site-config\.mjs \/opt\/motoparts\/site-config\.mjs/);
    // Before csp.envsh (19-), which reads the config it points to.
    assert.match(frontend, /deploy\/site-config\.envsh \/docker-entrypoint\.d\/17-site-config\.envsh/);
  });

  test('at start-up the served config.json gets the canary, and the CSP allows its origin', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'site-config-envsh-'));
    const config = {
      apiBaseUrl: 'https://api.shop.example',
      shellUrl: 'https://shop.example/',
      remotes: {
        storefront: 'https://storefront.shop.example/',
        auth: 'https://auth.shop.example/',
        dashboard: 'https://dashboard.shop.example/',
      },
    };
    writeFileSync(path.join(root, 'config.json'), JSON.stringify(config));
    writeFileSync(path.join(root, 'index.html'), '<html><script>1</script></html>');
    const env = {
      PATH: process.env.PATH,
      MOTOPARTS_HTML_ROOT: root,
      MOTOPARTS_RENDERED_CONFIG_DIR: path.join(root, 'rendered'),
      MOTOPARTS_SITE_CONFIG_SCRIPT: path.join(ROOT, 'scripts', 'site-config.mjs'),
      MOTOPARTS_CSP_SCRIPT: path.join(ROOT, 'scripts', 'csp.mjs'),
    };
    const start = (extra) =>
      spawnSync(
        'sh',
        [
          '-c',
          `. "${path.join(ROOT, 'deploy', 'site-config.envsh')}" && . "${path.join(ROOT, 'deploy', 'csp.envsh')}" && ` +
            'printf "%s\\n%s" "$MOTOPARTS_CONFIG_ROOT" "$CSP_POLICY"',
        ],
        { env: { ...env, ...extra }, encoding: 'utf8' },
      );
    // No canary: the mounted file is served as it is.
    const plain = start({});
    assert.equal(plain.status, 0, plain.stderr);
    assert.equal(plain.stdout.split('\n')[0], root);
    assert.doesNotMatch(plain.stdout, /cdn\.shop\.example/);

    const canary = start({
      DASHBOARD_CANARY_URL: 'https://cdn.shop.example/dashboard/2.2.0/',
      DASHBOARD_CANARY_PERCENT: '10',
    });
    assert.equal(canary.status, 0, canary.stderr);
    const [configRoot, policy] = canary.stdout.split('\n');
    assert.equal(configRoot, path.join(root, 'rendered'));
    const served = JSON.parse(readFileSync(path.join(configRoot, 'config.json'), 'utf8'));
    assert.deepEqual(served, {
      ...config,
      canary: { dashboard: { url: 'https://cdn.shop.example/dashboard/2.2.0/', percent: 10 } },
    });
    assert.match(policy, /script-src [^;]*https:\/\/cdn\.shop\.example/);
    // The mounted file is untouched.
    assert.deepEqual(JSON.parse(readFileSync(path.join(root, 'config.json'), 'utf8')), config);

    // Percent 0 is a rollback: no canary in the served file.
    const rolledBack = start({
      DASHBOARD_CANARY_URL: 'https://cdn.shop.example/dashboard/2.2.0/',
      DASHBOARD_CANARY_PERCENT: '0',
    });
    assert.equal(rolledBack.status, 0, rolledBack.stderr);
    assert.equal(
      JSON.parse(readFileSync(path.join(root, 'rendered', 'config.json'), 'utf8')).canary,
      undefined,
    );

    // A value it cannot use stops the container, naming the variable.
    for (const [extra, message] of [
      [
        { DASHBOARD_CANARY_URL: 'https://cdn.shop.example/x/', DASHBOARD_CANARY_PERCENT: '150' },
        /DASHBOARD_CANARY_PERCENT/,
      ],
      [{ AUTH_CANARY_URL: 'not a url', AUTH_CANARY_PERCENT: '5' }, /AUTH_CANARY_URL/],
    ]) {
      const res = start(extra);
      assert.notEqual(res.status, 0);
      assert.match(res.stderr, message);
      assert.match(res.stderr, /cannot add the canary/);
    }
  });
});

describe('deploy/service-token.envsh (the front-end image reads the service token from a file)', () => {
  const script = path.join(ROOT, 'deploy', 'service-token.envsh');
  const source = (env) =>
    spawnSync('sh', ['-c', `. "${script}" && printf %s "$SERVICE_TOKEN"`], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
    });

  test("exports the file's token; without a file keeps SERVICE_TOKEN; an unreadable or empty file stops the container", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'service-token-'));
    const token = 'shell-service-token-0123456789-abcdefghij';
    writeFileSync(path.join(dir, 'SERVICE_TOKEN'), `${token}\n`);
    writeFileSync(path.join(dir, 'empty'), '');
    const read = source({ SERVICE_TOKEN_FILE: path.join(dir, 'SERVICE_TOKEN'), SERVICE_TOKEN: '' });
    assert.equal(read.status, 0, read.stderr);
    assert.equal(read.stdout, token, 'the trailing newline is not part of the token');
    assert.equal(source({ SERVICE_TOKEN: 'as-set' }).stdout, 'as-set');
    for (const file of ['missing', 'empty']) {
      const res = source({ SERVICE_TOKEN_FILE: path.join(dir, file) });
      assert.notEqual(res.status, 0, file);
      assert.match(res.stderr, /cannot read the service token/);
    }
  });
});
