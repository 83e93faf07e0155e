import { Writable } from 'node:stream';
import { Types } from 'mongoose';
import pino from 'pino';
import type { Order, Review, User } from '@motoparts/contracts';
import { readModelKind } from '../lib/env';
import { firebaseAuth } from '../lib/firebase';
import { LegacyOrdersModel, OrderModel } from '../orders/model';
import { ReviewModel } from '../reviews/model';
import { UserModel } from '../users/model';
import { userLookupFor } from '../users/lookup';
import { endSessions, syncUser } from '../users/service';
import {
  account,
  claimsOf,
  deleteAccount,
  forgeIdToken,
  signIn,
  signUp,
  uniqueEmail,
  type Account,
} from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

// Accounts are Firebase uids: forged tokens, deleted and re-registered accounts, sign-out, the
// legacy by-email records, and what the public and the log may see of an email.

const adminEmail = uniqueEmail('idadmin');
// Records from before uid keying are older than this version: written before the API reads
// anything, as an earlier version would have left them.
const legacyEmail = uniqueEmail('legacy');
const squatterEmail = uniqueEmail('squatter');
const logLines: string[] = [];
let t: TestApp;
let partId: string;
let adminIdToken: string;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logLines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  t = await startTestApp('identity', { ADMIN_EMAILS: adminEmail }, { logger: pino({ level: 'info' }, sink) });
  partId = await insertPart({ availableQty: 1_000_000 });
  await legacyRecord(legacyEmail);
  await legacyRecord(squatterEmail);
  adminIdToken = await signUp(adminEmail, 'secret-pass-1', 'Ada Admin');
});
afterAll(() => t.close());

/** An email-keyed record with a profile, the admin role, one order and one review. */
async function legacyRecord(email: string): Promise<void> {
  await UserModel.collection.insertOne({
    email,
    name: 'Legacy Rider',
    role: 'admin',
    location: 'Bergen',
  } as never);
  await OrderModel.collection.insertOne({
    partId: new Types.ObjectId(partId),
    partName: 'Old part',
    user: email,
    userName: 'Legacy Rider',
    quantity: 100,
    unitPriceCents: 100,
    priceCents: 10000,
    paid: true,
    status: 'shipped',
    createdAt: new Date(),
    updatedAt: new Date(),
  } as never);
  await ReviewModel.collection.insertOne({
    email,
    name: 'Legacy Rider',
    img: '/images/reviewers/1.svg',
    review: `Old review ${Math.random().toString(36).slice(2)}`,
    rating: 4,
    createdAt: new Date(),
    updatedAt: new Date(),
  } as never);
}

const exchange = (email: string, idToken: string) =>
  call<{ token: string; admin: boolean; error?: { code: string } }>(
    t.base,
    'PUT',
    `/user/${encodeURIComponent(email)}`,
    {
      token: idToken,
    },
  );

describe('forged emulator tokens', () => {
  it("refuses (401) a token on the attacker's own uid carrying the admin's email", async () => {
    const admin = await exchange(adminEmail, adminIdToken);
    expect(
      (await call<{ admin: boolean }>(t.base, 'GET', `/admin/${adminEmail}`, { token: admin.body.token }))
        .body,
    ).toEqual({
      admin: true,
    });
    const attackerEmail = uniqueEmail('attacker');
    const attackerUid = String(claimsOf(await signUp(attackerEmail)).user_id);
    // The forging works: the same kind of token with the attacker's own email is accepted...
    expect((await exchange(attackerEmail, forgeIdToken(attackerUid, attackerEmail))).status).toBe(200);
    // ...but naming someone else's email on it is refused, and no admin token comes out.
    const forged = await exchange(adminEmail, forgeIdToken(attackerUid, adminEmail));
    expect(forged.status).toBe(401);
    expect(forged.body.error?.code).toBe('UNAUTHENTICATED');
    expect(forged.body).not.toHaveProperty('token');
    expect(await UserModel.countDocuments({ email: adminEmail })).toBe(1);
  });

  it('refuses a token for a uid that does not exist', async () => {
    const res = await exchange(
      'nobody@motoparts-test.dev',
      forgeIdToken('no-such-uid', 'nobody@motoparts-test.dev'),
    );
    expect(res.status).toBe(401);
  });
});

describe('sessions that end', () => {
  const password = 'secret-pass-1';
  const uidOf = (idToken: string) => String(claimsOf(idToken).user_id);
  const signedOutAt = async (uid: string) => (await UserModel.findById(uid).lean())?.sessionEpoch ?? 0;

  /** Waits until the clock has left the second an ID token was issued in (its `iat`). */
  async function pastIssueSecond(idToken: string): Promise<void> {
    const end = (Number(claimsOf(idToken).iat) + 1) * 1000;
    while (Date.now() < end) await new Promise((r) => setTimeout(r, end - Date.now()));
  }

  /** An ID token like the emulator's own, issued in the given second (the emulator signs nothing). */
  function idTokenIssuedAt(uid: string, email: string, iat: number): string {
    const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${enc({ alg: 'none', typ: 'JWT' })}.${enc({
      iss: 'https://securetoken.google.com/demo-motoparts',
      aud: 'demo-motoparts',
      auth_time: iat,
      user_id: uid,
      sub: uid,
      iat,
      exp: Math.floor(Date.now() / 1000) + 3600,
      email,
      email_verified: false,
      firebase: { identities: { email: [email] }, sign_in_provider: 'password' },
    })}.`;
  }

  const profileStatus = async (email: string, token: string) =>
    (await call(t.base, 'GET', `/user/${email}`, { token })).status;

  it('sign-out (DELETE /session) ends every API token and every ID token issued before it; a fresh sign-in works at once', async () => {
    const email = uniqueEmail('signout');
    const who = await account(t.base, email);
    const second = await exchange(email, who.idToken);
    expect(second.status).toBe(200);
    // The sign-out falls in a later second than the sign-in.
    await pastIssueSecond(who.idToken);
    expect((await call(t.base, 'DELETE', '/session', { token: who.token })).status).toBe(200);
    const epoch = await signedOutAt(uidOf(who.idToken));
    expect(epoch).toBeGreaterThan(Number(claimsOf(who.idToken).iat));
    // It answered once the sign-out's second was over: whatever signs in from now on is later.
    expect(Math.floor(Date.now() / 1000)).toBeGreaterThan(epoch);

    for (const token of [who.token, second.body.token]) expect(await profileStatus(email, token)).toBe(401);
    // The old Firebase ID token, still within Firebase's hour, no longer buys an API token.
    const stale = await call<{ token?: string; error: { code: string; message: string } }>(
      t.base,
      'PUT',
      `/user/${encodeURIComponent(email)}`,
      { token: who.idToken },
    );
    expect(stale.status).toBe(401);
    expect(stale.body.error).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'This sign-in ended with a sign-out; sign in again.',
    });
    expect(stale.body).not.toHaveProperty('token');

    // Signing in again right away works.
    const again = await exchange(email, await signIn(email, password));
    expect(again.status).toBe(200);
    expect(await profileStatus(email, again.body.token)).toBe(200);
    expect((await call(t.base, 'DELETE', '/session', {})).status).toBe(401);
  });

  it('compares whole seconds: an ID token of the sign-out second is refused, one of the next second accepted', async () => {
    const email = uniqueEmail('boundary');
    const who = await account(t.base, email);
    const uid = uidOf(who.idToken);
    expect((await call(t.base, 'DELETE', '/session', { token: who.token })).status).toBe(200);
    const epoch = await signedOutAt(uid);
    expect((await exchange(email, idTokenIssuedAt(uid, email, epoch - 1))).status).toBe(401);
    expect((await exchange(email, idTokenIssuedAt(uid, email, epoch))).status).toBe(401);
    const next = await exchange(email, idTokenIssuedAt(uid, email, epoch + 1));
    expect(next.status).toBe(200);
    expect(await profileStatus(email, next.body.token)).toBe(200);
  });

  it('a sign-out always moves the sign-out second forward, even with the clock set back', async () => {
    const email = uniqueEmail('clockback');
    const who = await account(t.base, email);
    const uid = uidOf(who.idToken);
    expect((await call(t.base, 'DELETE', '/session', { token: who.token })).status).toBe(200);
    const first = await signedOutAt(uid);
    const since = await exchange(email, await signIn(email, password));
    expect(await profileStatus(email, since.body.token)).toBe(200);
    // The next sign-out reads a clock set back to the start of the last sign-out's second.
    const setBack = Date.now() - first * 1000;
    await endSessions(uid, () => Date.now() - setBack);
    expect(await signedOutAt(uid)).toBe(first + 1);
    expect(await profileStatus(email, since.body.token)).toBe(401);
  });

  it("an admin's End sessions (DELETE /session/:email) does the same for another account and revokes its Firebase refresh tokens", async () => {
    const admin = (await exchange(adminEmail, adminIdToken)).body.token;
    const email = uniqueEmail('ended');
    const who = await account(t.base, email);
    const uid = uidOf(who.idToken);
    const revokedBefore = Date.parse((await firebaseAuth(t.env).getUser(uid)).tokensValidAfterTime ?? '');
    const path = `/session/${encodeURIComponent(email)}`;
    expect((await call(t.base, 'DELETE', path, {})).status).toBe(401);
    expect((await call(t.base, 'DELETE', path, { token: who.token })).status).toBe(403);
    expect(await profileStatus(email, who.token)).toBe(200);

    await pastIssueSecond(who.idToken);
    const ended = await call(t.base, 'DELETE', path, { token: admin });
    expect({ status: ended.status, body: ended.body }).toEqual({ status: 200, body: { success: true } });
    expect(await profileStatus(email, who.token)).toBe(401);
    expect((await exchange(email, who.idToken)).status).toBe(401);
    // Firebase dates the revocation after the sign-up: no refresh token from before still counts.
    const revokedAt = Date.parse((await firebaseAuth(t.env).getUser(uid)).tokensValidAfterTime ?? '');
    expect(revokedAt).toBeGreaterThan(revokedBefore);
    expect(revokedAt).toBeGreaterThan(Number(claimsOf(who.idToken).iat) * 1000);

    const again = await exchange(email, await signIn(email, password));
    expect(again.status).toBe(200);
    expect(await profileStatus(email, again.body.token)).toBe(200);
    // The admin's own session goes on.
    expect(await profileStatus(adminEmail, admin)).toBe(200);
  });

  it('End sessions answers 404 for an address no account holds, or only a record nobody has claimed', async () => {
    const admin = (await exchange(adminEmail, adminIdToken)).body.token;
    const unclaimed = uniqueEmail('unclaimed');
    await UserModel.collection.insertOne({ email: unclaimed, name: 'Old Record', role: 'user' } as never);
    for (const email of [uniqueEmail('nobody'), unclaimed]) {
      const res = await call<{ error: { code: string } }>(
        t.base,
        'DELETE',
        `/session/${encodeURIComponent(email)}`,
        { token: admin },
      );
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('a role change counts on the next request, with the same token', async () => {
    const admin = { token: (await exchange(adminEmail, adminIdToken)).body.token };
    const who = await account(t.base, uniqueEmail('promoted'));
    expect((await call(t.base, 'GET', '/user', { token: who.token })).status).toBe(403);
    expect((await call(t.base, 'PUT', `/user/admin/${who.email}`, { token: admin.token })).status).toBe(200);
    expect((await call(t.base, 'GET', '/user', { token: who.token })).status).toBe(200);
  });
});

describe('a re-registered email is a new customer', () => {
  it('inherits no orders, no profile and no admin role from the deleted account', async () => {
    const admin = { token: (await exchange(adminEmail, adminIdToken)).body.token };
    const email = uniqueEmail('reused');
    const old = await account(t.base, email, 'Old Owner');
    await call(t.base, 'PUT', `/userInfo/${email}`, { token: old.token, body: { location: 'Oslo' } });
    expect(
      (await call(t.base, 'POST', '/order', { token: old.token, body: { partsId: partId, qty: 100 } }))
        .status,
    ).toBe(201);
    expect((await call(t.base, 'PUT', `/user/admin/${email}`, { token: admin.token })).status).toBe(200);
    await deleteAccount(old.idToken);

    const newcomer: Account = await account(t.base, email, 'New Owner');
    expect(newcomer.token).not.toBe(old.token);
    expect(claimsOf(newcomer.token).admin).toBe(false);
    const orders = await call<Order[]>(t.base, 'GET', `/order?user=${email}`, { token: newcomer.token });
    expect(orders.status).toBe(200);
    expect(orders.body).toEqual([]);
    const profile = await call<User>(t.base, 'GET', `/user/${email}`, { token: newcomer.token });
    expect(profile.body).toMatchObject({ email, location: '', role: 'user', name: 'New Owner' });
    // The admin looking the address up sees the new account, and only one account holds it.
    const byAdmin = await call<Order[]>(t.base, 'GET', `/order?user=${email}`, { token: admin.token });
    expect(byAdmin.body).toEqual([]);
    expect(await UserModel.countDocuments({ email })).toBe(1);
    // The old account's order is still there (history), under the old uid.
    expect(await OrderModel.countDocuments({ user: email })).toBe(1);
  });

  it('an email change in Firebase moves with the account (same uid, same orders)', async () => {
    const email = uniqueEmail('mover');
    const who = await account(t.base, email);
    await call(t.base, 'POST', '/order', { token: who.token, body: { partsId: partId, qty: 100 } });
    const newEmail = uniqueEmail('moved');
    await firebaseAuth(t.env).updateUser(String(claimsOf(who.idToken).user_id), { email: newEmail });
    // The old ID token still names the old email: it no longer matches the account.
    expect((await exchange(email, who.idToken)).status).toBe(401);
    const fresh = await signIn(newEmail, 'secret-pass-1');
    const moved = await exchange(newEmail, fresh);
    expect(moved.status).toBe(200);
    const orders = await call<Order[]>(t.base, 'GET', `/order?user=${newEmail}`, { token: moved.body.token });
    expect(orders.body).toHaveLength(1);
  });
});

describe('records from before uid keying', () => {
  const exchange = (email: string, idToken: string) =>
    call<{ token: string; admin: boolean }>(t.base, 'PUT', `/user/${encodeURIComponent(email)}`, {
      headers: { authorization: `Bearer ${idToken}` },
    });

  /** A new account with this address, which Firebase has verified, exchanging its first token. */
  async function firstVerifiedExchange(email: string) {
    const idToken = await signUp(email);
    const uid = String(claimsOf(idToken).user_id);
    await firebaseAuth(t.env).updateUser(uid, { emailVerified: true });
    return { uid, res: await exchange(email, idToken) };
  }

  it('are claimed by the first exchange of a verified address: profile, role, orders and reviews move to the uid', async () => {
    const email = legacyEmail;
    const { uid, res } = await firstVerifiedExchange(email);
    expect(res.status).toBe(200);
    expect(res.body.admin).toBe(true);
    const profile = await call<User>(t.base, 'GET', `/user/${email}`, { token: res.body.token });
    expect(profile.body).toMatchObject({ _id: uid, location: 'Bergen', name: 'Legacy Rider' });
    const orders = await call<Order[]>(t.base, 'GET', `/order?user=${email}`, { token: res.body.token });
    expect(orders.body.map((o) => o.Parts)).toEqual(['Old part']);
    expect(await UserModel.countDocuments({ email })).toBe(1);
    expect(await ReviewModel.countDocuments({ email, uid })).toBe(1);
    expect(await OrderModel.countDocuments({ user: email, uid })).toBe(1);
    // On the embedded database the claim found the order through the address's list, now gone.
    if (readModelKind(t.env) === 'memory') expect(await LegacyOrdersModel.exists({ _id: email })).toBeNull();
  });

  it('a first verified sign-in of an address without older records claims nothing and leaves the others waiting', async () => {
    const email = uniqueEmail('newcomer');
    const { res } = await firstVerifiedExchange(email);
    expect(res.status).toBe(200);
    expect(res.body.admin).toBe(false);
    const orders = await call<Order[]>(t.base, 'GET', `/order?user=${email}`, { token: res.body.token });
    expect(orders.body).toEqual([]);
    // The other addresses' older orders are still waiting for their owners.
    if (readModelKind(t.env) === 'memory')
      expect((await LegacyOrdersModel.findById(squatterEmail).lean())?.ids).toHaveLength(1);
    expect(await OrderModel.countDocuments({ user: squatterEmail, uid: { $exists: false } })).toBe(1);
  });

  it('an unverified sign-up with that address claims nothing until Firebase has verified it', async () => {
    const email = squatterEmail;
    const idToken = await signUp(email);
    const uid = String(claimsOf(idToken).user_id);
    const first = await exchange(email, idToken);
    expect(first.status).toBe(200);
    expect(first.body.admin).toBe(false);
    const orders = await call<Order[]>(t.base, 'GET', `/order?user=${email}`, { token: first.body.token });
    expect(orders.body).toEqual([]);
    const profile = await call<User>(t.base, 'GET', `/user/${email}`, { token: first.body.token });
    expect(profile.body).toMatchObject({ _id: uid, location: '' });
    expect(await ReviewModel.countDocuments({ email, uid })).toBe(0);
    expect(logLines.some((l) => l.includes('left unclaimed') && !l.includes(email))).toBe(true);
    expect(await UserModel.countDocuments({ email })).toBe(2);

    // Once Firebase has verified the address, the next exchange claims it into the account.
    await firebaseAuth(t.env).updateUser(uid, { emailVerified: true });
    const second = await exchange(email, idToken);
    expect(second.status).toBe(200);
    expect(second.body.admin).toBe(true);
    const claimed = await call<Order[]>(t.base, 'GET', `/order?user=${email}`, { token: second.body.token });
    expect(claimed.body.map((o) => o.Parts)).toEqual(['Old part']);
    const merged = await call<User>(t.base, 'GET', `/user/${email}`, { token: second.body.token });
    expect(merged.body).toMatchObject({ _id: uid, location: 'Bergen' });
    expect(await UserModel.countDocuments({ email })).toBe(1);
    expect(await ReviewModel.countDocuments({ email, uid })).toBe(1);
  });
});

describe('what the public and the log see', () => {
  it('a display name holding an address or control characters is not published as typed', async () => {
    const named = await account(t.base, uniqueEmail('shouty'), 'Bell\u0007 Rider\u001b[2J');
    const mailed = await account(t.base, uniqueEmail('mailer'), 'write to me@example.com');
    const post = (who: Account, review: string) =>
      call<{ review: Review }>(t.base, 'POST', '/review', {
        token: who.token,
        body: { img: '/images/reviewers/1.svg', review, rating: 4 },
      });
    expect((await post(named, 'Cleaned name.')).body.review.name).toBe('Bell Rider[2J');
    expect((await post(mailed, 'Address name.')).body.review.name).toBe('MotoParts customer');
    const list = await call<Review[]>(t.base, 'GET', '/review', {});
    expect(list.text).not.toContain('@');
    expect(list.text).not.toMatch(/\\u00(07|1b)/);
  });

  it('public reviews carry the display name, never an email', async () => {
    const email = uniqueEmail('reviewer');
    const who = await account(t.base, email, 'Rita Reviewer');
    const posted = await call<{ review: Review }>(t.base, 'POST', '/review', {
      token: who.token,
      body: { email, img: '/images/reviewers/1.svg', review: 'Named, not addressed.', rating: 5 },
    });
    expect(posted.status).toBe(201);
    expect(posted.text).not.toContain('@');
    const list = await call<Review[]>(t.base, 'GET', '/review', {});
    expect(list.text).not.toContain('@');
    expect(list.body.find((r) => r.review === 'Named, not addressed.')).toMatchObject({
      name: 'Rita Reviewer',
    });
    for (const r of list.body)
      expect(Object.keys(r).sort()).toEqual(['_id', 'img', 'name', 'rating', 'review']);
  });

  it('pages past the end answer an empty page with the real total', async () => {
    const res = await call<Review[]>(t.base, 'GET', '/review?page=99999&limit=7', {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThan(0);
  });

  it('request log lines hold no email (path or query) and cut long URLs', async () => {
    const email = uniqueEmail('logged');
    const who = await account(t.base, email);
    await call(t.base, 'GET', `/order?user=${encodeURIComponent(email)}`, { token: who.token });
    await call(t.base, 'GET', `/user/${email}`, { token: who.token });
    await call(t.base, 'GET', `/parts?q=${'x'.repeat(3000)}`, {});
    const requests = logLines.map((l) => JSON.parse(l) as { msg: string; url?: string }).filter((l) => l.url);
    const mine = requests.filter((l) => l.url?.startsWith('/order?user=') || l.url?.startsWith('/user/'));
    expect(mine.length).toBeGreaterThanOrEqual(3);
    const [localPart] = email.split('@');
    for (const line of logLines) {
      expect(line).not.toContain(email);
      expect(line).not.toContain(encodeURIComponent(email));
      expect(line).not.toContain(localPart);
    }
    expect(requests.some((l) => l.url === '/order?user=[email]')).toBe(true);
    const long = requests.find((l) => l.url?.startsWith('/parts?q=xxx'));
    expect(long?.url?.length).toBeLessThanOrEqual(201);
  });
});

describe('ADMIN_EMAILS bootstrap', () => {
  it('needs an address Firebase verified, except in emulator mode (which says so in the log)', async () => {
    const email = uniqueEmail('listed');
    const idToken = await signUp(email);
    const uid = String(claimsOf(idToken).user_id);
    const account = await firebaseAuth(t.env).getUser(uid);
    expect(account.emailVerified).toBe(false);
    const listed = { ...t.env, ADMIN_EMAILS: [email] };
    const log = pino({ level: 'silent' });
    // A real Firebase project: an unverified listed address gets no role.
    const real = { ...listed, FIREBASE_AUTH_EMULATOR_HOST: undefined };
    const lookup = userLookupFor(real);
    // Roles only: no orders of the email-keyed era to claim here.
    const noClaims = async () => undefined;
    expect((await syncUser(real, log, lookup, account, email, noClaims)).role).toBe('user');
    // Once Firebase has verified it, it does.
    const verified = await firebaseAuth(t.env).updateUser(uid, { emailVerified: true });
    expect((await syncUser(real, log, lookup, verified, email, noClaims)).role).toBe('admin');
    // Emulator mode cannot verify addresses: the list applies as is, with a warning line.
    const before = logLines.length;
    const admin = await exchange(adminEmail, adminIdToken);
    expect(admin.body.admin).toBe(true);
    expect(
      logLines.slice(before).some((l) => l.includes('ADMIN_EMAILS: unverified address made admin')),
    ).toBe(true);
  });
});
