import type { Order } from '@motoparts/contracts';
import { lifecycle } from '../lib/lifecycle';
import { OrderModel } from '../orders/model';
import { PartModel } from '../parts/model';
import { account, cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { got } from './support/faults';
import { postSucceededWebhook, startStripeProxy, type Seen } from './support/stripe-proxy';

type Err = { error: { code: string; message: string } };

let t: TestApp;
let customer: Account;
let other: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');
const seen: Seen[] = [];
/** Intents the Stripe proxy reports as paid by the customer (id → amount in cents). */
const succeeded = new Map<string, number>();
let stripeBase: string;
let closeProxy: () => Promise<void>;

beforeAll(async () => {
  ({ base: stripeBase, close: closeProxy } = await startStripeProxy(
    process.env.STRIPE_API_BASE ?? '',
    seen,
    succeeded,
  ));
  t = await startTestApp('order_rules', {
    ADMIN_EMAILS: adminEmail,
    STRIPE_API_BASE: stripeBase,
    MAX_OPEN_ORDERS: '3',
    // Twenty concurrent retries of one key: the per-account order limit is not under test here.
    RATE_LIMIT_ORDER: '0/60',
  });
  ({ customer, other, admin } = await cast(t.base, adminEmail));
});
afterAll(async () => {
  await t.close();
  await closeProxy();
});

async function order(who: Account, partsId: string, qty = 100, headers: Record<string, string> = {}) {
  return call<Order & Err>(t.base, 'POST', '/order', { token: who.token, body: { partsId, qty }, headers });
}

/** The customer's order of `partsId` with its PaymentIntent opened (as the payment page does). */
async function orderWithIntent(partsId: string) {
  const placed = await order(customer, partsId);
  const pi = await call(t.base, 'POST', '/create-payment-intent', {
    token: customer.token,
    body: { orderId: placed.body._id },
  });
  expect(pi.status).toBe(200);
  const intentId = got(got(await OrderModel.findById(placed.body._id).lean()).paymentIntentId);
  return { placed, intentId };
}

const postSucceeded = (orderId: string, amount: number, intentId: string) =>
  postSucceededWebhook(t, orderId, amount, intentId);

async function cancel(who: Account, id: string) {
  return call<Err>(t.base, 'DELETE', `/order/${id}`, { token: who.token });
}

const stockOf = async (partsId: string) => got(await PartModel.findById(partsId).lean()).availableQty;

describe('Idempotency-Key on POST /order', () => {
  it('the same key and body twice: one order, the same answer', async () => {
    const partsId = await insertPart({ availableQty: 1000 });
    const key = { 'idempotency-key': `k-${Math.random()}` };
    const first = await order(other, partsId, 100, key);
    const second = await order(other, partsId, 100, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(await OrderModel.countDocuments({ partId: partsId })).toBe(1);
    expect(await stockOf(partsId)).toBe(900);
    await cancel(other, first.body._id);
  });

  it('20 concurrent requests with one key: exactly one order', async () => {
    const partsId = await insertPart({ availableQty: 5000 });
    const key = { 'idempotency-key': `k-${Math.random()}` };
    const all = await Promise.all(Array.from({ length: 20 }, () => order(other, partsId, 200, key)));
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(201));
    expect(new Set(all.map((r) => r.body._id)).size).toBe(1);
    expect(await OrderModel.countDocuments({ partId: partsId })).toBe(1);
    expect(await stockOf(partsId)).toBe(4800);
    await cancel(other, got(all[0]).body._id);
  });

  it('the same key with another body is a 422 and creates nothing', async () => {
    const partsId = await insertPart({ availableQty: 1000 });
    const key = { 'idempotency-key': `k-${Math.random()}` };
    const first = await order(other, partsId, 100, key);
    const changed = await order(other, partsId, 200, key);
    expect(changed.status).toBe(422);
    expect(changed.body.error.code).toBe('UNPROCESSABLE_ENTITY');
    expect(changed.body.error.message).toMatch(/Idempotency-Key was already used/);
    expect(await OrderModel.countDocuments({ partId: partsId })).toBe(1);
    await cancel(other, first.body._id);
  });

  it('without a key, two presses are two orders; a malformed key is a 400', async () => {
    const partsId = await insertPart({ availableQty: 1000 });
    const a = await order(other, partsId);
    const b = await order(other, partsId);
    expect(a.body._id).not.toBe(b.body._id);
    const bad = await order(other, partsId, 100, { 'idempotency-key': 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    await cancel(other, a.body._id);
    await cancel(other, b.body._id);
  });
});

describe('per-customer cap on open orders', () => {
  it('refuses the fourth unpaid order with a clear 409, and allows it again once one is cancelled', async () => {
    const who = await account(t.base, uniqueEmail('capped'), 'Cap Customer');
    const partsId = await insertPart({ availableQty: 10_000 });
    const placed = [];
    for (let i = 0; i < 3; i++) placed.push(await order(who, partsId));
    expect(placed.map((r) => r.status)).toEqual([201, 201, 201]);
    const fourth = await order(who, partsId);
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.message).toBe(
      'You already have 3 unpaid orders. Pay or cancel one of them in My Order before placing another.',
    );
    expect(await stockOf(partsId)).toBe(9700);
    expect((await cancel(who, got(placed[0]).body._id)).status).toBe(200);
    expect((await order(who, partsId)).status).toBe(201);
    // Concurrent presses cannot overshoot the cap either.
    const burst = await Promise.all(Array.from({ length: 5 }, () => order(who, partsId)));
    expect(burst.filter((r) => r.status === 201)).toHaveLength(0);
    // A paid order no longer counts.
    const paid = got(placed[1]).body;
    expect((await postSucceeded(paid._id, Math.round(paid.price * 100), 'pi_cap_paid')).status).toBe(200);
    expect((await order(who, partsId)).status).toBe(201);
  });

  it('five presses at once from a customer with no open order place exactly three', async () => {
    const who = await account(t.base, uniqueEmail('burst'), 'Burst Customer');
    const partsId = await insertPart({ availableQty: 10_000 });
    const burst = await Promise.all(Array.from({ length: 5 }, () => order(who, partsId)));
    expect(burst.map((r) => r.status).sort()).toEqual([201, 201, 201, 409, 409]);
    expect(await stockOf(partsId)).toBe(9700);
  });
});

describe('cancelling and shipping', () => {
  it('an admin-shipped order cannot be cancelled (409) and its stock stays sold', async () => {
    const partsId = await insertPart({ availableQty: 1000 });
    const placed = await order(customer, partsId);
    expect(
      (await postSucceeded(placed.body._id, Math.round(placed.body.price * 100), 'pi_rules_shipped')).status,
    ).toBe(200);
    const shipped = await call(t.base, 'PATCH', `/order/${placed.body._id}/status`, {
      token: admin.token,
      body: { status: 'shipped' },
    });
    expect(shipped.status).toBe(200);
    const res = await cancel(customer, placed.body._id);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('This order has already shipped and can no longer be cancelled.');
    expect(await stockOf(partsId)).toBe(900);
  });

  it('cancelling an order with an open PaymentIntent cancels the intent at Stripe first', async () => {
    const partsId = await insertPart({ availableQty: 1000 });
    const { placed, intentId } = await orderWithIntent(partsId);
    seen.length = 0;
    expect((await cancel(customer, placed.body._id)).status).toBe(200);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toContain(`POST /v1/payment_intents/${intentId}/cancel`);
    expect(await stockOf(partsId)).toBe(1000);
    expect(await OrderModel.findById(placed.body._id).lean()).toBeNull();
  });

  it('cancelling an order whose payment already succeeded at Stripe: 409, the order stays and is paid', async () => {
    const partsId = await insertPart({ availableQty: 1000, price: 20 });
    const { placed, intentId } = await orderWithIntent(partsId);
    // The customer pays (at Stripe) while the cancellation is on its way.
    succeeded.set(intentId, 200_000);
    seen.length = 0;
    const res = await cancel(customer, placed.body._id);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('This order was paid meanwhile, so it stays and will be shipped.');
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(
      expect.arrayContaining([
        `POST /v1/payment_intents/${intentId}/cancel`,
        `GET /v1/payment_intents/${intentId}`,
      ]),
    );
    const stored = got(await OrderModel.findById(placed.body._id).lean());
    expect(stored).toMatchObject({ paid: true, transactionId: intentId, status: 'pending' });
    // The pieces stay sold, and no refund went out.
    expect(await stockOf(partsId)).toBe(900);
    expect(seen.filter((s) => s.path === '/v1/refunds')).toEqual([]);
  });

  it('a payment that succeeds for a cancelled order is refunded through Stripe and logged as an error', async () => {
    const partsId = await insertPart({ availableQty: 1000, price: 20 });
    const placed = await order(customer, partsId);
    expect((await cancel(customer, placed.body._id)).status).toBe(200);
    seen.length = 0;
    const res = await postSucceeded(placed.body._id, 200_000, 'pi_late_payment');
    expect(res.status).toBe(200);
    const refunds = seen.filter((s) => s.method === 'POST' && s.path === '/v1/refunds');
    expect(refunds).toHaveLength(1);
    expect(new URLSearchParams(got(refunds[0]).body).get('payment_intent')).toBe('pi_late_payment');
    expect(await OrderModel.findById(placed.body._id).lean()).toBeNull();
    expect(await stockOf(partsId)).toBe(1000);
  });
});

describe('readiness while draining', () => {
  it('/health answers 503 and /livez 200 while the process drains', async () => {
    expect((await call(t.base, 'GET', '/livez')).status).toBe(200);
    lifecycle.draining = true;
    try {
      const health = await call<Err>(t.base, 'GET', '/health');
      expect(health.status).toBe(503);
      expect(health.body.error.message).toBe('The API is shutting down.');
      expect((await call(t.base, 'GET', '/livez')).status).toBe(200);
    } finally {
      lifecycle.draining = false;
    }
    expect((await call(t.base, 'GET', '/health')).status).toBe(200);
  });
});
