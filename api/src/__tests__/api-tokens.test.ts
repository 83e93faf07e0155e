import jwt from 'jsonwebtoken';
import { account, claimsOf, uniqueEmail, type Account } from './support/auth';
import { call, startTestApp, type TestApp } from './support/harness';

// The API's own tokens (HS256, issued by the token exchange): only what this API signed, with
// this secret and issuer and still in date, opens a signed-in route.

let t: TestApp;
let who: Account;

beforeAll(async () => {
  t = await startTestApp('api_tokens');
  who = await account(t.base, uniqueEmail('tokens'));
});
afterAll(async () => {
  await t.close();
});

const read = (token: string) =>
  call<{ error?: { code: string; message: string } }>(t.base, 'GET', `/user/${who.email}`, { token });

const enc = (part: object) => Buffer.from(JSON.stringify(part)).toString('base64url');

/** The exchange's claims, signed again by jsonwebtoken with the given secret and changes. */
function resign(secret: string, changes: Record<string, unknown>): string {
  return jwt.sign({ ...claimsOf(who.token), ...changes }, secret, { algorithm: 'HS256' });
}

it('accepts its own token, and one signed with the secret given as a plain string', async () => {
  expect((await read(who.token)).status).toBe(200);
  // Tokens signed before the secret became a key object (same bytes) still open the account.
  expect((await read(resign(t.env.JWT_SECRET, {}))).status).toBe(200);
});

it.each([
  ['signed with another secret', () => resign('another-secret-of-at-least-32-characters', {}), /not valid/],
  [
    'naming another account under the original signature',
    () => {
      const [header, , signature] = who.token.split('.');
      return `${header}.${enc({ ...claimsOf(who.token), sub: 'someone-else' })}.${signature}`;
    },
    /not valid/,
  ],
  [
    'without a signature (alg none)',
    () => `${enc({ alg: 'none', typ: 'JWT' })}.${who.token.split('.')[1]}.`,
    /not valid/,
  ],
  ['from another issuer', () => resign(t.env.JWT_SECRET, { iss: 'someone-else' }), /not valid/],
  [
    'past its expiry',
    () => resign(t.env.JWT_SECRET, { exp: Math.floor(Date.now() / 1000) - 60 }),
    /^Your session has expired/,
  ],
  ['that is not a JWT', () => 'not-a-token', /not valid/],
])('refuses (401), saying why, a token %s', async (_name, token, message) => {
  const res = await read(token());
  expect(res.status).toBe(401);
  expect(res.body.error?.code).toBe('UNAUTHENTICATED');
  expect(res.body.error?.message).toMatch(message);
});
