import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EnvError, FILE_VARIABLES, loadEnv, poolSize, productionProblems } from '../lib/env';

const base = {
  MONGODB_URI: 'mongodb://127.0.0.1:27017/motoparts',
  FIREBASE_PROJECT_ID: 'demo-motoparts',
  STRIPE_SECRET_KEY: 'sk_test_123',
  STRIPE_WEBHOOK_SECRET: 'whsec_abc',
  JWT_SECRET: 'x'.repeat(32),
};

function errorOf(fn: () => unknown): EnvError {
  try {
    fn();
  } catch (err) {
    if (err instanceof EnvError) return err;
    throw err;
  }
  throw new Error('expected an EnvError');
}

it('names every missing variable', () => {
  const err = errorOf(() => loadEnv({}));
  expect(err.variables.sort()).toEqual([
    'FIREBASE_PROJECT_ID',
    'JWT_SECRET',
    'MONGODB_URI',
    'STRIPE_SECRET_KEY',
    'STRIPE_WEBHOOK_SECRET',
  ]);
  expect(err.message).toContain('MONGODB_URI is missing');
});

it.each([
  ['MONGODB_URI', 'postgres://x'],
  ['JWT_SECRET', 'short'],
  ['PORT', 'eighty'],
  ['MONGODB_POOL_SIZE', '0'],
  ['STRIPE_API_BASE', 'not a url'],
  ['MONGODB_EMBEDDED', 'yes please'],
  ['SHOP_TIME_ZONE', 'Mars/Olympus_Mons'],
])('names a malformed %s', (name, value) => {
  const err = errorOf(() => loadEnv({ ...base, [name]: value }));
  expect(err.variables).toEqual([name]);
  expect(err.message).toContain(`${name} is invalid`);
});

it('uses one connection against the embedded database, the driver default otherwise, and honours the override', () => {
  expect(poolSize(loadEnv({ ...base, MONGODB_EMBEDDED: 'true' }))).toBe(1);
  expect(poolSize(loadEnv({ ...base, MONGODB_EMBEDDED: 'false' }))).toBeUndefined();
  expect(poolSize(loadEnv({ ...base, MONGODB_EMBEDDED: 'true', MONGODB_POOL_SIZE: '4' }))).toBe(4);
});

it('ends a shutdown before Compose and Kubernetes kill the process (10 s after SIGTERM by default)', () => {
  expect(loadEnv(base).SHUTDOWN_TIMEOUT_MS).toBeLessThan(10_000);
});

it('parses lists and defaults', () => {
  const env = loadEnv({ ...base, ADMIN_EMAILS: ' Admin@MotoParts.test , b@c.de,', PORT_API: '5100' });
  expect(env.ADMIN_EMAILS).toEqual(['admin@motoparts.test', 'b@c.de']);
  expect(env.PORT).toBe(5100);
  expect(env.BODY_LIMIT_BYTES).toBe(100 * 1024);
  expect(env.SHOP_TIME_ZONE).toBe('UTC');
  expect(loadEnv({ ...base, SHOP_TIME_ZONE: 'Europe/Berlin' }).SHOP_TIME_ZONE).toBe('Europe/Berlin');
});

describe('<NAME>_FILE: a secret read from a file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'motoparts-env-'));
  let files = 0;
  /** A new file holding exactly `content`; its path. */
  const file = (content: string): string => {
    const name = path.join(dir, `secret-${++files}`);
    writeFileSync(name, content);
    return name;
  };
  /** The base environment without the four secrets (FILE_VARIABLES). */
  const withoutSecrets = (): Record<string, string> =>
    Object.fromEntries(
      Object.entries(base).filter(([name]) => !(FILE_VARIABLES as readonly string[]).includes(name)),
    );
  const secret = 'y'.repeat(8) + '0123456789abcdefghijklmnopqrstuv';

  it('covers the database URI and every secret', () => {
    expect([...FILE_VARIABLES].sort()).toEqual([
      'JWT_SECRET',
      'MONGODB_URI',
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
    ]);
  });

  it('reads each variable from its file, without the one trailing newline', () => {
    const env = loadEnv({
      ...withoutSecrets(),
      MONGODB_URI_FILE: file('mongodb://app:p%40ss@db.example:27017/motoparts?authSource=motoparts\n'),
      JWT_SECRET_FILE: file(`${secret}\r\n`),
      STRIPE_SECRET_KEY_FILE: file('sk_live_fromfile'),
      STRIPE_WEBHOOK_SECRET_FILE: file('whsec_fromfile\n'),
    });
    expect(env.MONGODB_URI).toBe('mongodb://app:p%40ss@db.example:27017/motoparts?authSource=motoparts');
    expect(env.JWT_SECRET).toBe(secret);
    expect(env.STRIPE_SECRET_KEY).toBe('sk_live_fromfile');
    expect(env.STRIPE_WEBHOOK_SECRET).toBe('whsec_fromfile');
  });

  it('reads the optional service token from its file too, and needs none', () => {
    const token = 'shop-server-token-0123456789-abcdefghij';
    expect(loadEnv({ ...base, SERVICE_TOKEN_FILE: file(`${token}\n`) }).SERVICE_TOKEN).toBe(token);
    expect(loadEnv(base).SERVICE_TOKEN).toBeUndefined();
  });

  it('removes one newline only: the rest of the file is the value', () => {
    const env = loadEnv({ ...base, JWT_SECRET: undefined, JWT_SECRET_FILE: file(`${secret}\n\n`) });
    expect(env.JWT_SECRET).toBe(`${secret}\n`);
  });

  it('refuses both forms at once, naming both', () => {
    const err = errorOf(() => loadEnv({ ...base, JWT_SECRET_FILE: file(secret) }));
    expect(err.variables).toEqual(['JWT_SECRET', 'JWT_SECRET_FILE']);
    expect(err.message).toContain('JWT_SECRET and JWT_SECRET_FILE are both set');
  });

  it.each([
    ['a missing file', () => path.join(dir, 'missing'), 'ENOENT'],
    ['a directory', () => dir, 'EISDIR'],
    ['an empty file', () => file(''), 'empty file'],
    ['a file holding only a newline', () => file('\n'), 'empty file'],
  ])('names the variable for %s, and nothing else about it', (_what, target, reason) => {
    const where = target();
    const err = errorOf(() => loadEnv({ ...base, MONGODB_URI: undefined, MONGODB_URI_FILE: where }));
    expect(err.variables).toEqual(['MONGODB_URI_FILE']);
    const lines = err.message.split('\n').slice(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ {2}MONGODB_URI_FILE /);
    expect(lines[0]).toContain(where);
    expect(lines[0]).toContain(reason);
  });

  it('validates a value read from a file like any other, saying where it came from', () => {
    const err = errorOf(() =>
      loadEnv({
        ...base,
        STRIPE_SECRET_KEY: undefined,
        STRIPE_SECRET_KEY_FILE: file('pk_live_not_a_secret\n'),
      }),
    );
    expect(err.variables).toEqual(['STRIPE_SECRET_KEY']);
    expect(err.message).toContain('STRIPE_SECRET_KEY is invalid');
    expect(err.message).toContain('read from STRIPE_SECRET_KEY_FILE');
    expect(err.message).not.toContain('pk_live_not_a_secret');
  });

  it('reports file problems and other problems together, one line each', () => {
    const err = errorOf(() =>
      loadEnv({
        ...withoutSecrets(),
        JWT_SECRET_FILE: path.join(dir, 'absent'),
        STRIPE_SECRET_KEY: 'sk_live_x',
        STRIPE_SECRET_KEY_FILE: file('sk_live_y'),
        STRIPE_WEBHOOK_SECRET_FILE: file('whsec_ok'),
        PORT: 'eighty',
      }),
    );
    expect(err.variables.sort()).toEqual(
      ['JWT_SECRET_FILE', 'MONGODB_URI', 'PORT', 'STRIPE_SECRET_KEY', 'STRIPE_SECRET_KEY_FILE'].sort(),
    );
    expect(err.message.split('\n').slice(1)).toHaveLength(4);
    expect(err.message).toContain('MONGODB_URI is missing (set MONGODB_URI or MONGODB_URI_FILE)');
  });

  it('reads SMTP_URL from its file too, and needs none outside production', () => {
    const url = 'smtps://orders:p%40ss-0123456789@smtp.motoparts.example:465';
    expect(loadEnv({ ...base, SMTP_URL_FILE: file(`${url}\n`) }).SMTP_URL).toBe(url);
    expect(loadEnv(base).SMTP_URL).toBeUndefined();
    const err = errorOf(() => loadEnv({ ...base, SMTP_URL: url, SMTP_URL_FILE: file(url) }));
    expect(err.variables).toEqual(['SMTP_URL', 'SMTP_URL_FILE']);
  });

  it('is only for secrets: another variable ending in _FILE is not read', () => {
    const err = errorOf(() =>
      loadEnv({ ...base, FIREBASE_PROJECT_ID: undefined, FIREBASE_PROJECT_ID_FILE: file('demo-motoparts') }),
    );
    expect(err.variables).toEqual(['FIREBASE_PROJECT_ID']);
  });
});

describe('mail: SMTP_URL, MAIL_FROM, MAIL_DISABLED', () => {
  const production = { ...base, NODE_ENV: 'production' };

  it('defaults: no SMTP_URL, the shop as sender, mail not disabled', () => {
    const env = loadEnv(base);
    expect(env.SMTP_URL).toBeUndefined();
    expect(env.MAIL_FROM).toBe('MotoParts <orders@motoparts.test>');
    expect(env.MAIL_DISABLED).toBe(false);
  });

  it.each([
    'smtp://127.0.0.1:1025',
    'smtp://mailpit:1025',
    'smtps://orders:p%40ss@smtp.example.com:465',
    'smtp://apikey:secret@smtp.example.com:587?requireTLS=true',
  ])('takes SMTP_URL %s', (url) => {
    expect(loadEnv({ ...base, SMTP_URL: url }).SMTP_URL).toBe(url);
  });

  it.each(['http://smtp.example.com', 'smtp:/no-host', 'smtp.example.com:587', 'mailpit'])(
    'names a malformed SMTP_URL (%s), never its value',
    (url) => {
      const err = errorOf(() => loadEnv({ ...base, SMTP_URL: url }));
      expect(err.variables).toEqual(['SMTP_URL']);
      expect(err.message).toContain('SMTP_URL is invalid (must be an smtp:// or smtps:// URL with a host)');
      expect(err.message).not.toContain(url);
    },
  );

  it.each([
    'orders@motoparts.example',
    'MotoParts <orders@motoparts.example>',
    '"Moto, Parts" <o@m.example>',
  ])('takes MAIL_FROM %s', (from) => {
    expect(loadEnv({ ...base, MAIL_FROM: from }).MAIL_FROM).toBe(from);
  });

  it.each(['MotoParts', 'orders@localhost', 'MotoParts <orders>', 'A <a@b.example>\r\nBcc: c@d.example'])(
    'names a malformed MAIL_FROM (%j)',
    (from) => {
      const err = errorOf(() => loadEnv({ ...base, MAIL_FROM: from }));
      expect(err.variables).toEqual(['MAIL_FROM']);
      expect(err.message).toContain('MAIL_FROM is invalid');
    },
  );

  it('MAIL_DISABLED=1 leaves SMTP_URL and SMTP_URL_FILE unread, whatever they hold', () => {
    const env = loadEnv({
      ...base,
      MAIL_DISABLED: '1',
      SMTP_URL: 'not a url',
      SMTP_URL_FILE: path.join(tmpdir(), 'motoparts-no-such-file'),
    });
    expect(env.MAIL_DISABLED).toBe(true);
    expect(env.SMTP_URL).toBeUndefined();
    expect(loadEnv({ ...base, MAIL_DISABLED: '0', SMTP_URL: 'smtp://mailpit:1025' }).SMTP_URL).toBe(
      'smtp://mailpit:1025',
    );
    expect(errorOf(() => loadEnv({ ...base, MAIL_DISABLED: 'yes' })).variables).toEqual(['MAIL_DISABLED']);
  });

  it('production needs SMTP_URL, or MAIL_DISABLED=1 to say there is no mail', () => {
    const smtp = (env: Record<string, string>) =>
      productionProblems(loadEnv(env)).filter((p) => p.startsWith('SMTP_URL'));
    expect(smtp(production)).toEqual([expect.stringContaining('SMTP_URL is missing')]);
    expect(smtp({ ...production, SMTP_URL: 'smtp://smtp.example.com:587' })).toEqual([]);
    expect(smtp({ ...production, MAIL_DISABLED: '1' })).toEqual([]);
    // Outside production no SMTP_URL only means no mail.
    expect(productionProblems(loadEnv(base))).toEqual([]);
  });
});
