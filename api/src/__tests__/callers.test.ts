import { CallerCache } from '../users/callers';
import { UserModel } from '../users/model';
import { cast, claimsOf, uniqueEmail, type Account } from './support/auth';
import { call, startTestApp, type TestApp } from './support/harness';

// On the embedded database the account behind a token is kept a few seconds instead of read on
// every request (users/callers.ts). A sign-out, a role change or a deleted record made through
// the API must still count from the very next request.

let t: TestApp;
let admin: Account;
let customer: Account;
const adminEmail = uniqueEmail('calleradmin');

beforeAll(async () => {
  t = await startTestApp('callers', { ADMIN_EMAILS: adminEmail, MONGODB_EMBEDDED: 'true' });
  ({ admin, customer } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

const profile = (who: Account) =>
  call(t.base, 'GET', `/user/${encodeURIComponent(who.email)}`, { token: who.token });

describe('the kept caller', () => {
  it('is read again after a write to the account, and not kept from a read a write overtook', async () => {
    let now = 1_000_000;
    const cache = new CallerCache(() => now);
    const uid = String(claimsOf(customer.token).sub);
    expect((await cache.load(uid))?.admin).toBe(false);
    // Behind the API's back (no hook): the kept answer stands until it is a few seconds old.
    await UserModel.collection.updateOne({ _id: uid as never }, { $set: { name: 'Behind the back' } });
    expect((await cache.load(uid))?.name).not.toBe('Behind the back');
    now += 10_000;
    expect((await cache.load(uid))?.name).toBe('Behind the back');
    // Through the model: dropped at once.
    await UserModel.updateOne({ _id: uid }, { $set: { name: 'Through the model' } });
    expect((await cache.load(uid))?.name).toBe('Through the model');
    // A read that a write overtakes answers its caller but is not kept.
    const overtaken = cache.load(uid);
    await UserModel.updateOne({ _id: uid }, { $set: { name: 'Overtaking' } });
    await overtaken;
    await UserModel.collection.updateOne({ _id: uid as never }, { $set: { name: 'Read again' } });
    expect((await cache.load(uid))?.name).toBe('Read again');
  });

  it('a sign-out, a new admin and a deleted record count from the next request', async () => {
    expect((await profile(customer)).status).toBe(200);
    expect((await profile(customer)).status).toBe(200); // kept now
    // Make Admin, through the API: the customer can read someone else's record at once.
    const other = call(t.base, 'GET', `/user/${encodeURIComponent(admin.email)}`, { token: customer.token });
    expect((await other).status).toBe(403);
    expect(
      (await call(t.base, 'PUT', `/user/admin/${encodeURIComponent(customer.email)}`, { token: admin.token }))
        .status,
    ).toBe(200);
    const asAdmin = await call(t.base, 'GET', `/user/${encodeURIComponent(admin.email)}`, {
      token: customer.token,
    });
    expect(asAdmin.status).toBe(200);
    // Sign-out through the API: the token is refused by the next request.
    expect((await call(t.base, 'DELETE', '/session', { token: customer.token })).status).toBe(200);
    expect((await profile(customer)).status).toBe(401);
    // A record deleted through the model: refused too.
    expect((await profile(admin)).status).toBe(200);
    await UserModel.deleteOne({ _id: String(claimsOf(admin.token).sub) });
    expect((await profile(admin)).status).toBe(401);
  });
});
