import type { ApiError, Cart, Checkout, Order, User } from '@motoparts/contracts';
import { createLogger } from '../lib/logger';
import { createStripe } from '../lib/stripe';
import { expireDue } from '../orders/jobs';
import { Types } from 'mongoose';
import { recoverCheckouts } from '../orders/checkout';
import { CheckoutModel, CheckoutNoteModel, OrderModel } from '../orders/model';
import { recoverOnce, takeStock } from '../orders/stock';
import { orderRules } from '../orders/rules';
import { PartModel } from '../parts/model';
import { stripePayments } from '../payments/service';
import { readModelsFor } from '../read-models';
import { UserModel } from '../users/model';
import { account, cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { postSucceededWebhook } from './support/stripe-proxy';

// The cart and the checkout against the real app, FerretDB, the emulator and stripe-mock: the
// spec's messages on the cart's lines, problems shown rather than changed, a checkout all or
// nothing (stock exact under 20 competing checkouts), one payment for every line, cancel and expiry
// of every line together, and the single-order paths refusing a checkout's lines.

let t: TestApp;
let customer: Account;
let admin: Account;
const adminEmail = uniqueEmail('cartadmin');
const ADDRESS = { address: '12 Workshop Lane, Leeds', phone: '+44 113 496 0000' };

beforeAll(async () => {
  t = await startTestApp('cart_checkout', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_CHECKOUT: '0/60',
    RATE_LIMIT_STRIPE: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

type Err = ApiError;
const setLine = (who: Account, partId: string, qty: number) =>
  call<Cart>(t.base, 'PUT', `/cart/lines/${partId}`, { token: who.token, body: { qty } });
const cartOf = (who: Account) => call<Cart>(t.base, 'GET', '/cart', { token: who.token });
const checkout = (who: Account, headers: Record<string, string> = {}) =>
  call<Checkout>(t.base, 'POST', '/checkout', { token: who.token, body: ADDRESS, headers });
const stockOf = async (id: string) => (await PartModel.findById(id).lean())?.availableQty;

async function emptyCart(who: Account): Promise<void> {
  for (const line of (await cartOf(who)).body.lines) {
    await call(t.base, 'DELETE', `/cart/lines/${line.partId}`, { token: who.token });
  }
}

describe('the cart', () => {
  it('sets, shows and removes lines with the spec’s messages at the minimum and the stock', async () => {
    const part = await insertPart({ price: 2.5, minOrderQty: 100, availableQty: 500 });
    const low = await setLine(customer, part, 99);
    expect(low.status).toBe(400);
    expect((low.body as unknown as Err).error.message).toBe('Minimum purchase quantity is 100');
    const high = await setLine(customer, part, 501);
    expect(high.status).toBe(409);
    expect((high.body as unknown as Err).error.message).toBe('You have reach our available stocks');
    const set = await setLine(customer, part, 200);
    expect(set.status).toBe(200);
    expect(set.body.lines).toEqual([
      expect.objectContaining({
        partId: part,
        qty: 200,
        minQty: 100,
        availableQty: 500,
        unitPrice: 2.5,
        lineTotal: 500,
      }),
    ]);
    expect(set.body.total).toBe(500);
    // Setting it again replaces the line; the cart is kept by the API.
    expect((await setLine(customer, part, 300)).body.lines.map((l) => l.qty)).toEqual([300]);
    expect((await cartOf(customer)).body.total).toBe(750);
    const removed = await call<Cart>(t.base, 'DELETE', `/cart/lines/${part}`, { token: customer.token });
    expect(removed.body).toEqual({ lines: [], total: 0 });
  });

  it('is for customers only: an admin gets the spec’s alert, an anonymous caller a 401', async () => {
    const part = await insertPart();
    const asAdmin = await setLine(admin, part, 100);
    expect(asAdmin.status).toBe(403);
    expect((asAdmin.body as unknown as Err).error.message).toBe('As an admin You can not order any product.');
    expect((await call(t.base, 'GET', '/cart', { token: admin.token })).status).toBe(403);
    expect((await call(t.base, 'GET', '/cart', {})).status).toBe(401);
  });

  it('shows a deleted part, a stock that fell and a changed price as problems, never changing the line', async () => {
    const who = await account(t.base, uniqueEmail('problems'));
    const gone = await insertPart({ availableQty: 1000 });
    const short = await insertPart({ availableQty: 1000 });
    const repriced = await insertPart({ price: 3, availableQty: 1000 });
    for (const id of [gone, short, repriced]) expect((await setLine(who, id, 200)).status).toBe(200);
    await PartModel.deleteOne({ _id: gone });
    await PartModel.updateOne({ _id: short }, { $set: { availableQty: 150 } });
    await PartModel.updateOne({ _id: repriced }, { $set: { priceCents: 350 } });
    const { lines } = (await cartOf(who)).body;
    expect(lines.map((l) => [l.qty, l.problem?.code])).toEqual([
      [200, 'deleted'],
      [200, 'stock'],
      [200, 'price'],
    ]);
    // The checkout refuses until the customer has looked: nothing is reserved.
    const refused = await checkout(who);
    expect(refused.status).toBe(409);
    expect(await stockOf(short)).toBe(150);
    expect(await stockOf(repriced)).toBe(1000);
    // Setting the line again accepts today's price.
    expect(
      (await setLine(who, repriced, 200)).body.lines.find((l) => l.partId === repriced)?.problem,
    ).toBeUndefined();
  });

  it('holds at most 50 lines', async () => {
    const who = await account(t.base, uniqueEmail('full'));
    for (let i = 0; i < 50; i++) expect((await setLine(who, await insertPart(), 100)).status).toBe(200);
    const over = await setLine(who, await insertPart(), 100);
    expect(over.status).toBe(409);
    expect((over.body as unknown as Err).error.message).toMatch(/at most 50 lines/);
  });
});

describe('the checkout', () => {
  it('places one order per line in one step, empties the cart and keeps the address', async () => {
    const a = await insertPart({ price: 4, availableQty: 1000 });
    const b = await insertPart({ price: 1.25, availableQty: 1000 });
    await emptyCart(customer);
    await setLine(customer, a, 100);
    await setLine(customer, b, 400);
    const placed = await checkout(customer);
    expect(placed.status).toBe(201);
    expect(placed.headers.get('location')).toBe(`/checkout/${placed.body.checkoutId}`);
    expect(placed.body.total).toBe(900);
    expect(placed.body.orders.map((o) => [o.partsId, o.qty, o.price, o.paid, o.checkoutId])).toEqual([
      [a, 100, 400, false, placed.body.checkoutId],
      [b, 400, 500, false, placed.body.checkoutId],
    ]);
    expect([await stockOf(a), await stockOf(b)]).toEqual([900, 600]);
    expect((await cartOf(customer)).body.lines).toEqual([]);
    const user = await UserModel.findOne({ email: customer.email }).lean();
    expect([user?.address, user?.phone]).toEqual([ADDRESS.address, ADDRESS.phone]);
    // …and the profile answers with them, for the cart page to offer at the next checkout.
    const profile = await call<User>(t.base, 'GET', `/user/${encodeURIComponent(customer.email)}`, {
      token: customer.token,
    });
    expect([profile.body.address, profile.body.phone]).toEqual([ADDRESS.address, ADDRESS.phone]);
    // My Order lists the lines as orders of the checkout.
    const mine = await call<Order[]>(t.base, 'GET', `/order?user=${encodeURIComponent(customer.email)}`, {
      token: customer.token,
    });
    expect(mine.body.filter((o) => o.checkoutId === placed.body.checkoutId)).toHaveLength(2);
    const read = await call<Checkout>(t.base, 'GET', `/checkout/${placed.body.checkoutId}`, {
      token: customer.token,
    });
    expect(read.body).toEqual(placed.body);
    const other = await account(t.base, uniqueEmail('nosy'));
    expect(
      (await call(t.base, 'GET', `/checkout/${placed.body.checkoutId}`, { token: other.token })).status,
    ).toBe(403);
  });

  it('an empty cart is a 409, and a checkout answers the same for the same Idempotency-Key, taking stock once', async () => {
    const who = await account(t.base, uniqueEmail('idem'));
    expect((await checkout(who)).status).toBe(409);
    const part = await insertPart({ availableQty: 1000 });
    await setLine(who, part, 300);
    const key = { 'idempotency-key': `checkout-${Date.now()}` };
    const [first, second] = await Promise.all([checkout(who, key), checkout(who, key)]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.checkoutId).toBe(first.body.checkoutId);
    expect((await checkout(who, key)).body.checkoutId).toBe(first.body.checkoutId);
    expect(await stockOf(part)).toBe(700);
  });

  it('20 checkouts competing for the same parts never oversell: stock exact, every checkout whole or absent', async () => {
    const a = await insertPart({ availableQty: 1000 });
    const b = await insertPart({ availableQty: 700 });
    const buyers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => account(t.base, uniqueEmail(`race${i}`))),
    );
    for (const who of buyers) {
      await setLine(who, a, 100);
      await setLine(who, b, 100);
    }
    const results = await Promise.all(buyers.map((who) => checkout(who)));
    const placed = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 409);
    expect(placed.length + refused.length).toBe(20);
    // b runs out after 7: at most 7 checkouts can be whole.
    expect(placed.length).toBe(7);
    for (const r of refused) {
      const lines = (
        (r.body as unknown as Err).error.details as { lines: { partId: string; availableQty: number }[] }
      ).lines;
      expect(lines.map((l) => l.partId)).toContain(b);
    }
    const orders = await OrderModel.find({ partId: { $in: [a, b] } }).lean();
    expect(orders).toHaveLength(14);
    expect([await stockOf(a), await stockOf(b)]).toEqual([1000 - 700, 0]);
    const parts = await PartModel.find({ _id: { $in: [a, b] } }, { journal: 1 }).lean();
    // No marker of a refused checkout is left behind (placed ones are pulled by the clean-up).
    const refusedIds = new Set(
      (await CheckoutModel.find({ state: 'failed', 'lines.partId': a }).lean()).flatMap((c) =>
        c.lines.map((l) => l.orderId),
      ),
    );
    for (const p of parts)
      for (const mark of p.journal ?? []) expect(refusedIds.has(mark.slice(1, 25))).toBe(false);
  });

  it('one PaymentIntent pays every line; a webhook with another amount pays none', async () => {
    const who = await account(t.base, uniqueEmail('payer'));
    const a = await insertPart({ price: 2, availableQty: 1000 });
    const b = await insertPart({ price: 3, availableQty: 1000 });
    await setLine(who, a, 100);
    await setLine(who, b, 100);
    const placed = (await checkout(who)).body;
    const intent = await call<{ clientSecret: string }>(t.base, 'POST', '/create-payment-intent', {
      token: who.token,
      body: { checkoutId: placed.checkoutId },
    });
    expect(intent.status).toBe(200);
    const stored = await CheckoutModel.findById(placed.checkoutId).lean();
    expect(stored?.paymentIntentId).toBeTruthy();
    const meta = { checkoutId: placed.checkoutId };
    const wrong = await postSucceededWebhook(t, '', 49_999, 'pi_checkout_wrong', meta);
    expect(wrong.status).toBe(200);
    expect((await OrderModel.find({ checkoutId: placed.checkoutId }).lean()).every((o) => !o.paid)).toBe(
      true,
    );
    const right = await postSucceededWebhook(t, '', 50_000, 'pi_checkout_right', meta);
    expect(right.status).toBe(200);
    const lines = await OrderModel.find({ checkoutId: placed.checkoutId }).lean();
    expect(lines.map((o) => [o.paid, o.transactionId])).toEqual([
      [true, 'pi_checkout_right'],
      [true, 'pi_checkout_right'],
    ]);
    // A replay changes nothing; the paid checkout cannot be cancelled.
    expect((await postSucceededWebhook(t, '', 50_000, 'pi_checkout_right', meta)).status).toBe(200);
    const read = await call<Checkout>(t.base, 'GET', `/checkout/${placed.checkoutId}`, { token: who.token });
    expect(read.body).toMatchObject({ status: 'paid', paid: true, transactionId: 'pi_checkout_right' });
    expect(
      (await call(t.base, 'DELETE', `/checkout/${placed.checkoutId}`, { token: who.token })).status,
    ).toBe(409);
  });

  it('a checkout’s lines are paid and cancelled with it: the single-order paths say so', async () => {
    const who = await account(t.base, uniqueEmail('lines'));
    const part = await insertPart({ availableQty: 1000 });
    await setLine(who, part, 100);
    const placed = (await checkout(who)).body;
    const line = placed.orders[0]?._id ?? '';
    const cancel = await call<Err>(t.base, 'DELETE', `/order/${line}`, { token: who.token });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.message).toContain(placed.checkoutId);
    const intent = await call<Err>(t.base, 'POST', '/create-payment-intent', {
      token: who.token,
      body: { orderId: line },
    });
    expect(intent.status).toBe(409);
    expect(intent.body.error.message).toContain(placed.checkoutId);
  });

  it('cancelling gives every line back; expiry releases every line together', async () => {
    const who = await account(t.base, uniqueEmail('cancel'));
    const a = await insertPart({ availableQty: 1000 });
    const b = await insertPart({ availableQty: 1000 });
    await setLine(who, a, 100);
    await setLine(who, b, 200);
    const first = (await checkout(who)).body;
    expect((await call(t.base, 'DELETE', `/checkout/${first.checkoutId}`, { token: who.token })).status).toBe(
      200,
    );
    expect([await stockOf(a), await stockOf(b)]).toEqual([1000, 1000]);
    expect(await OrderModel.countDocuments({ checkoutId: first.checkoutId })).toBe(0);
    expect(
      (await call<Checkout>(t.base, 'GET', `/checkout/${first.checkoutId}`, { token: who.token })).body
        .status,
    ).toBe('cancelled');

    await setLine(who, a, 100);
    await setLine(who, b, 200);
    const second = (await checkout(who)).body;
    const rules = orderRules(t.env);
    const log = createLogger(t.env);
    const expired = await expireDue(
      rules,
      readModelsFor(t.env).orders,
      stripePayments(createStripe(t.env)),
      log,
      Date.now() + rules.holdMs + 1000,
    );
    expect(expired).toBeGreaterThanOrEqual(1);
    const lines = await OrderModel.find({ checkoutId: second.checkoutId }).lean();
    expect(lines.map((o) => o.status)).toEqual(['expired', 'expired']);
    expect([await stockOf(a), await stockOf(b)]).toEqual([1000, 1000]);
    expect(
      (await call<Checkout>(t.base, 'GET', `/checkout/${second.checkoutId}`, { token: who.token })).body
        .status,
    ).toBe('expired');
  });
});

describe('recovery of a checkout a crash interrupted', () => {
  /** A checkout written as the placing steps leave it, its note and the lines whose stock is taken. */
  async function crashed(state: string, taken: number, extra: Record<string, unknown> = {}) {
    const who = await account(t.base, uniqueEmail(`crash-${state}`));
    const parts = [
      await insertPart({ availableQty: 1000 }),
      await insertPart({ availableQty: 1000 }),
      await insertPart({ availableQty: 1000 }),
    ];
    const _id = new Types.ObjectId().toHexString();
    const lines = parts.map((partId, i) => ({
      orderId: new Types.ObjectId().toHexString(),
      partId,
      partName: `Part ${i}`,
      quantity: 100,
      unitPriceCents: 1250,
      priceCents: 125_000,
    }));
    const user = await UserModel.findOne({ email: who.email }).lean();
    await CheckoutNoteModel.create({ _id, at: new Date(Date.now() - 1000) });
    await CheckoutModel.create({
      _id,
      uid: String(user?._id),
      user: who.email,
      lines,
      totalCents: 375_000,
      state,
      address: ADDRESS.address,
      phone: ADDRESS.phone,
      ...extra,
    });
    for (const line of lines.slice(0, taken)) {
      expect(
        await takeStock({ _id: line.orderId, partId: line.partId, quantity: line.quantity }),
      ).not.toBeNull();
    }
    return { _id, lines, parts };
  }
  const stocks = (parts: string[]) => Promise.all(parts.map(stockOf));
  const recover = async () => {
    await recoverCheckouts({ graceMs: 0 });
    await recoverOnce({ graceMs: 0 });
  };

  it('an uncommitted checkout an earlier version wrote first is rolled back: failed, every taken line given back, no order', async () => {
    const { _id, lines, parts } = await crashed('reserving', 2);
    expect(await stocks(parts)).toEqual([900, 900, 1000]);
    await recover();
    expect((await CheckoutModel.findById(_id).lean())?.state).toBe('failed');
    expect(await stocks(parts)).toEqual([1000, 1000, 1000]);
    expect(
      await OrderModel.countDocuments({ _id: { $in: lines.map((l) => l.orderId) }, hold: { $ne: 'void' } }),
    ).toBe(0);
    expect(await CheckoutNoteModel.exists({ _id })).toBeNull();
  });

  it('a checkout that exists only as its note’s draft is rolled back: written failed, every taken line given back', async () => {
    const { _id, lines, parts } = await crashed('reserving', 2);
    // As the placing leaves it before its commit: the note with the draft, no checkout yet.
    const written = await CheckoutModel.findById(_id).lean();
    await CheckoutModel.deleteOne({ _id });
    await CheckoutNoteModel.updateOne(
      { _id },
      {
        $set: {
          draft: {
            uid: written?.uid,
            user: written?.user,
            userName: '',
            lines,
            totalCents: written?.totalCents,
            address: written?.address,
            phone: written?.phone,
          },
        },
      },
    );
    expect(await stocks(parts)).toEqual([900, 900, 1000]);
    await recover();
    const failed = await CheckoutModel.findById(_id).lean();
    expect([failed?.state, failed?.lines.map((l) => l.orderId)]).toEqual([
      'failed',
      lines.map((l) => l.orderId),
    ]);
    expect(await stocks(parts)).toEqual([1000, 1000, 1000]);
    expect(
      await OrderModel.countDocuments({ _id: { $in: lines.map((l) => l.orderId) }, hold: { $ne: 'void' } }),
    ).toBe(0);
    expect(await CheckoutNoteModel.exists({ _id })).toBeNull();
    // The id is taken for good: a request that stalled before its commit cannot write it now.
    await expect(CheckoutModel.create({ _id, ...written, state: 'placed' })).rejects.toMatchObject({
      code: 11000,
    });
  });

  it('a committed checkout is rolled forward: every line’s order written, the stock stays taken', async () => {
    const { _id, lines, parts } = await crashed('placed', 3);
    await recover();
    const orders = await OrderModel.find({ checkoutId: _id }).lean();
    expect(orders.map((o) => [String(o._id), o.hold, o.paid])).toEqual(
      lines.map((l) => [l.orderId, 'held', false]),
    );
    expect(await stocks(parts)).toEqual([900, 900, 900]);
    expect(await CheckoutNoteModel.exists({ _id })).toBeNull();
  });

  it('a paid checkout whose lines were not all marked is finished: every line paid with its transaction', async () => {
    const { _id, parts } = await crashed('paid', 3, { transactionId: 'pi_crash', paidAt: new Date() });
    await recover();
    const orders = await OrderModel.find({ checkoutId: _id }).lean();
    expect(orders.map((o) => [o.paid, o.transactionId])).toEqual([
      [true, 'pi_crash'],
      [true, 'pi_crash'],
      [true, 'pi_crash'],
    ]);
    expect(await stocks(parts)).toEqual([900, 900, 900]);
  });

  it('a release cut short is finished: every line given back, the checkout released', async () => {
    const { _id, parts } = await crashed('placed', 3);
    await recover(); // its orders, as a placed checkout has them
    await CheckoutNoteModel.create({ _id, at: new Date(Date.now() - 1000) });
    await CheckoutModel.updateOne({ _id }, { $set: { state: 'releasing', releaseTo: 'cancelled' } });
    await recover();
    expect((await CheckoutModel.findById(_id).lean())?.state).toBe('released');
    expect(await stocks(parts)).toEqual([1000, 1000, 1000]);
    expect(await OrderModel.countDocuments({ checkoutId: _id })).toBe(0);
  });
});
