import { firebaseAuth } from '../lib/firebase';
import { account, claimsOf, deleteAccount, uniqueEmail } from './support/auth';
import { call, startTestApp, type TestApp } from './support/harness';

// API tokens live one short window (15 minutes by default; 2 s here so the end is observable):
// renewing goes through Firebase, so a deleted or disabled account loses API access within it.

const TOKEN_SECONDS = 2;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp('session_window', { JWT_EXPIRES_IN_SECONDS: String(TOKEN_SECONDS) });
});
afterAll(() => t.close());

const exchange = (email: string, idToken: string) =>
  call<{ token: string }>(t.base, 'PUT', `/user/${encodeURIComponent(email)}`, { token: idToken });

/** Polls until the API refuses the token; fails if it is still accepted after `seconds`. */
async function refusedWithin(token: string, email: string, seconds: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const res = await call(t.base, 'GET', `/user/${email}`, { token });
    if (res.status === 401) return;
    expect(res.status).toBe(200);
    if (Date.now() - started > seconds * 1000) throw new Error(`token still accepted after ${seconds} s`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

it('a deleted account keeps API access at most one token lifetime, and cannot renew it', async () => {
  const who = await account(t.base, uniqueEmail('leaver'));
  expect((await call(t.base, 'GET', `/user/${who.email}`, { token: who.token })).status).toBe(200);
  await deleteAccount(who.idToken);
  await refusedWithin(who.token, who.email, TOKEN_SECONDS + 10);
  // Its Firebase ID token has not expired, but the account behind it is gone.
  const renewed = await exchange(who.email, who.idToken);
  expect(renewed.status).toBe(401);
});

it('a disabled account cannot renew; a live one renews with the same ID token', async () => {
  const live = await account(t.base, uniqueEmail('live'));
  await refusedWithin(live.token, live.email, TOKEN_SECONDS + 10);
  const renewed = await exchange(live.email, live.idToken);
  expect(renewed.status).toBe(200);
  await firebaseAuth(t.env).updateUser(String(claimsOf(live.idToken).user_id), { disabled: true });
  expect((await exchange(live.email, live.idToken)).status).toBe(401);
});
