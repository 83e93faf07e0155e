import type { ApiError, Cart, DeletedPart, Order, Part, User } from '@motoparts/contracts';
import { OrderModel } from '../orders/model';
import { PartModel } from '../parts/model';
import { UserModel } from '../users/model';
import { firebaseAuth } from '../lib/firebase';
import { account, cast, claimsOf, signIn, uniqueEmail, type Account } from './support/auth';
import { got } from './support/faults';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

// What admins do to accounts and parts at scale, against the real app, FerretDB and the auth
// emulator: taking the admin role (never one's own, never the last admin's, even when two admins
// demote each other at once), disabling an account (its tokens stop at the next request, it cannot
// sign in until enabled), and deleting a part that open orders still need (archived, stock exact).

let t: TestApp;
let customer: Account;
let other: Account;
let admin: Account;
const adminEmail = uniqueEmail('acctadmin');

beforeAll(async () => {
  t = await startTestApp('admin_accounts', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_ORDER: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, other, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

type Err = ApiError;
const path = (kind: 'admin' | 'disabled', email: string) => `/user/${kind}/${encodeURIComponent(email)}`;
const promote = (email: string, who = admin) =>
  call<{ modifiedCount: number } & Err>(t.base, 'PUT', path('admin', email), { token: who.token });
const demote = (email: string, who = admin) =>
  call<{ modifiedCount: number } & Err>(t.base, 'DELETE', path('admin', email), { token: who.token });
const disable = (email: string, who = admin) =>
  call<User & Err>(t.base, 'PUT', path('disabled', email), { token: who.token });
const enable = (email: string, who = admin) =>
  call<User & Err>(t.base, 'DELETE', path('disabled', email), { token: who.token });
const adminsNow = () => UserModel.countDocuments({ role: 'admin', email: { $exists: true } });
/** Whether the API takes `who`'s token as an admin's right now (an admin-only list). */
const actsAsAdmin = async (who: Account) => (await call(t.base, 'GET', '/user', { token: who.token })).status;

describe('the admin role', () => {
  it('is taken from another admin, never from oneself, never from an ADMIN_EMAILS address', async () => {
    const second = await account(t.base, uniqueEmail('second'), 'Sid Second');
    expect((await promote(second.email)).body.modifiedCount).toBe(1);
    expect(await actsAsAdmin(second)).toBe(200);

    const own = await demote(adminEmail);
    expect(own.status).toBe(409);
    expect(own.body.error.message).toBe('You cannot remove your own admin role.');
    const listed = await demote(adminEmail, second);
    expect(listed.status).toBe(409);
    expect(listed.body.error.message).toContain('ADMIN_EMAILS');

    const taken = await demote(second.email);
    expect(taken.status).toBe(200);
    expect(taken.body.modifiedCount).toBe(1);
    // At once: the very next request of the demoted admin is a customer's.
    expect(await actsAsAdmin(second)).toBe(403);
    expect((await demote(second.email)).body.modifiedCount).toBe(0);
    expect((await demote(customer.email, customer)).status).toBe(403);
    expect((await call(t.base, 'DELETE', path('admin', customer.email))).status).toBe(401);
    expect((await demote(uniqueEmail('nobody'))).status).toBe(404);
  });

  it('two admins demoting each other at once never leave the shop without one', async () => {
    const left = await account(t.base, uniqueEmail('left'), 'Lee Left');
    const right = await account(t.base, uniqueEmail('right'), 'Rae Right');
    // The bootstrapped admin steps aside (behind the API's back), so these two are the only ones.
    const bootstrap = got(await UserModel.findOne({ email: adminEmail }).lean());
    await UserModel.updateOne({ _id: bootstrap._id }, { $set: { role: 'user' } });
    try {
      for (let round = 0; round < 10; round++) {
        await UserModel.updateMany(
          { email: { $in: [left.email, right.email] } },
          { $set: { role: 'admin' } },
        );
        const [a, b] = await Promise.all([demote(right.email, left), demote(left.email, right)]);
        // One wins, or neither (each found no admin left and gave the role back): never both.
        expect([a.status, b.status].filter((s) => s === 200).length).toBeLessThanOrEqual(1);
        for (const res of [a, b]) expect([200, 403, 409]).toContain(res.status);
        expect(await adminsNow()).toBeGreaterThanOrEqual(1);
      }
    } finally {
      await UserModel.updateOne({ _id: bootstrap._id }, { $set: { role: 'admin' } });
      await UserModel.updateMany({ email: { $in: [left.email, right.email] } }, { $set: { role: 'user' } });
    }
  });
});

describe('disabling an account', () => {
  it('stops its API token at once, ends its sessions and its sign-in; enabling lets it sign in anew', async () => {
    const rider = await account(t.base, uniqueEmail('rider'), 'Rob Rider');
    expect((await call(t.base, 'GET', `/user/${rider.email}`, { token: rider.token })).status).toBe(200);

    const off = await disable(rider.email);
    expect(off.status).toBe(200);
    expect(off.body.disabled).toBe(true);
    const refused = await call<Err>(t.base, 'GET', `/user/${rider.email}`, { token: rider.token });
    expect(refused.status).toBe(401);
    expect(refused.body.error.message).toBe('This account is disabled.');
    // Firebase holds it disabled too: no sign-in, and its ID token no longer trades for ours.
    const uid = String(claimsOf(rider.idToken).user_id);
    expect((await firebaseAuth(t.env).getUser(uid)).disabled).toBe(true);
    await expect(signIn(rider.email, 'secret-pass-1')).rejects.toThrow();
    expect(
      (await call(t.base, 'PUT', `/user/${encodeURIComponent(rider.email)}`, { token: rider.idToken }))
        .status,
    ).toBe(401);
    // The admins' list says so; an admin cannot promote it while disabled.
    const listed = await call<User[]>(t.base, 'GET', '/user?limit=100', { token: admin.token });
    expect(listed.body.find((u) => u.email === rider.email)?.disabled).toBe(true);
    expect((await promote(rider.email)).status).toBe(409);
    expect(got(await UserModel.findById(uid).lean()).role).toBe('user');

    const on = await enable(rider.email);
    expect(on.status).toBe(200);
    expect(on.body.disabled).toBeUndefined();
    expect((await firebaseAuth(t.env).getUser(uid)).disabled).toBe(false);
    // The old sessions stay ended; a new sign-in works.
    expect((await call(t.base, 'GET', `/user/${rider.email}`, { token: rider.token })).status).toBe(401);
    const idToken = await signIn(rider.email, 'secret-pass-1');
    const again = await call<{ token: string }>(t.base, 'PUT', `/user/${encodeURIComponent(rider.email)}`, {
      token: idToken,
    });
    expect(again.status).toBe(200);
    expect((await call(t.base, 'GET', `/user/${rider.email}`, { token: again.body.token })).status).toBe(200);
  });

  it('never the caller, never an admin; customers and visitors may not', async () => {
    const self = await disable(adminEmail);
    expect(self.status).toBe(409);
    expect(self.body.error.message).toBe('You cannot disable your own account.');
    const helper = await account(t.base, uniqueEmail('helper'), 'Hal Helper');
    await promote(helper.email);
    const anAdmin = await disable(helper.email);
    expect(anAdmin.status).toBe(409);
    expect(anAdmin.body.error.message).toContain('remove the admin role');
    expect(await actsAsAdmin(helper)).toBe(200);
    await demote(helper.email);
    expect((await disable(other.email, customer)).status).toBe(403);
    expect((await call(t.base, 'PUT', path('disabled', other.email))).status).toBe(401);
    expect((await disable(uniqueEmail('nobody'))).status).toBe(404);
    // The customer was never touched by the refused attempts.
    expect((await call(t.base, 'GET', `/user/${other.email}`, { token: other.token })).status).toBe(200);
  });
});

describe('deleting a part', () => {
  const stockOf = async (id: string) => got(await PartModel.findById(id).lean()).availableQty;

  it('removes a part no order needs', async () => {
    const id = await insertPart({ availableQty: 500 });
    const res = await call<DeletedPart>(t.base, 'DELETE', `/parts/${id}`, { token: admin.token });
    expect(res.body).toEqual({ success: true, archived: false });
    expect(await PartModel.exists({ _id: id })).toBeNull();
    expect((await call(t.base, 'GET', `/parts/${id}`)).status).toBe(404);
  });

  it('archives a part an open order holds: hidden, not orderable, its stock still comes back; removed once no order needs it', async () => {
    const id = await insertPart({ name: `Archived bolt ${Date.now()}`, availableQty: 500 });
    const placed = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: id, qty: 200 },
    });
    expect(placed.status).toBe(201);
    await call(t.base, 'PUT', `/cart/lines/${id}`, { token: other.token, body: { qty: 100 } });

    const res = await call<DeletedPart>(t.base, 'DELETE', `/parts/${id}`, { token: admin.token });
    expect(res.body).toEqual({ success: true, archived: true });
    expect(await stockOf(id)).toBe(300);

    // Gone from the catalogue, its page, carts and new orders.
    expect((await call(t.base, 'GET', `/parts/${id}`)).status).toBe(404);
    const listed = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent('Archived bolt')}`);
    expect(listed.body.map((p) => p._id)).not.toContain(id);
    const again = await call<Err>(t.base, 'POST', '/order', {
      token: other.token,
      body: { partsId: id, qty: 100 },
    });
    expect(again.status).toBe(404);
    expect(
      (await call(t.base, 'PUT', `/cart/lines/${id}`, { token: other.token, body: { qty: 100 } })).status,
    ).toBe(404);
    const cart = await call<Cart>(t.base, 'GET', '/cart', { token: other.token });
    expect(cart.body.lines.find((l) => l.partId === id)?.problem?.code).toBe('deleted');
    expect(await stockOf(id)).toBe(300);

    // The order still sees its part through: cancelling gives its pieces back to it.
    expect(
      (await call(t.base, 'DELETE', `/order/${placed.body._id}`, { token: customer.token })).status,
    ).toBe(200);
    expect(await OrderModel.exists({ _id: placed.body._id })).toBeNull();
    expect(await stockOf(id)).toBe(500);

    const removed = await call<DeletedPart>(t.base, 'DELETE', `/parts/${id}`, { token: admin.token });
    expect(removed.body).toEqual({ success: true, archived: false });
    expect(await PartModel.exists({ _id: id })).toBeNull();
  });
});
