import { EnvError, loadEnv, poolSize } from '../lib/env';

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

it('parses lists and defaults', () => {
  const env = loadEnv({ ...base, ADMIN_EMAILS: ' Admin@MotoParts.test , b@c.de,', PORT_API: '5100' });
  expect(env.ADMIN_EMAILS).toEqual(['admin@motoparts.test', 'b@c.de']);
  expect(env.PORT).toBe(5100);
  expect(env.BODY_LIMIT_BYTES).toBe(100 * 1024);
});
