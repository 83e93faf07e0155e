import type { Order } from '@motoparts/contracts';
import { createStripe } from '../lib/stripe';
import { createLogger } from '../lib/logger';
import { OrderModel } from '../orders/model';
import { PartModel } from '../parts/model';
import { startOrderJobs, type OrderJobs } from '../orders/jobs';
import { stripePayments } from '../payments/service';
import { readModelsFor } from '../read-models';
import { account, uniqueEmail } from './support/auth';
import { eventually, got } from './support/faults';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { postSucceededWebhook, startStripeProxy, type Seen } from './support/stripe-proxy';

type Err = { error: { code: string; message: string } };

let t: TestApp;
let jobs: OrderJobs | undefined;
const seen: Seen[] = [];
/** Intents the Stripe proxy reports as paid by the customer (id → amount in cents). */
const succeeded = new Map<string, number>();
let closeProxy: () => Promise<void>;

beforeAll(async () => {
  const proxy = await startStripeProxy(process.env.STRIPE_API_BASE ?? '', seen, succeeded);
  closeProxy = proxy.close;
  // A 3 s hold, and the API's background jobs running in this process.
  t = await startTestApp('order_expiry', { ORDER_HOLD_MINUTES: '0.05', STRIPE_API_BASE: proxy.base });
});
afterAll(async () => {
  await jobs?.stop();
  await t.close();
  await closeProxy();
});

const stockOf = async (partsId: string) => got(await PartModel.findById(partsId).lean()).availableQty;

describe('reservation expiry', () => {
  it('an unpaid order past ORDER_HOLD_MINUTES expires: stock returns, it shows as expired and cannot be paid', async () => {
    const short = t;
    {
      const who = await account(short.base, uniqueEmail('expiring'), 'Ex Piring');
      const partsId = await insertPart({ availableQty: 1000 });
      const placed = await call<Order>(short.base, 'POST', '/order', {
        token: who.token,
        body: { partsId, qty: 300 },
      });
      expect(placed.status).toBe(201);
      expect(placed.body.expiresAt).toBeDefined();
      const withIntent = await call(short.base, 'POST', '/create-payment-intent', {
        token: who.token,
        body: { orderId: placed.body._id },
      });
      expect(withIntent.status).toBe(200);
      expect(await stockOf(partsId)).toBe(700);

      seen.length = 0;
      jobs = startOrderJobs(
        short.env,
        readModelsFor(short.env).orders,
        stripePayments(createStripe(short.env)),
        createLogger(short.env),
      );
      expect(
        await eventually(
          async () => (await OrderModel.findById(placed.body._id).lean())?.status === 'expired',
          200,
          100,
        ),
      ).toBe(true);
      expect(await stockOf(partsId)).toBe(700 + 300);

      const mine = await call<Order[]>(short.base, 'GET', `/order?user=${encodeURIComponent(who.email)}`, {
        token: who.token,
      });
      expect(mine.body.map((o) => [o._id, o.status, o.paid])).toEqual([[placed.body._id, 'expired', false]]);
      const pay = await call<Err>(short.base, 'POST', '/create-payment-intent', {
        token: who.token,
        body: { orderId: placed.body._id },
      });
      expect(pay.status).toBe(409);
      expect(pay.body.error.message).toMatch(/expired/);
      const cancelled = await call<Err>(short.base, 'DELETE', `/order/${placed.body._id}`, {
        token: who.token,
      });
      expect(cancelled.status).toBe(409);

      // A payment that lands after expiry is refunded, not kept.
      const late = await postSucceededWebhook(
        t,
        placed.body._id,
        Math.round(placed.body.price * 100),
        'pi_after_expiry',
      );
      expect(late.status).toBe(200);
      expect(seen.some((s) => s.path === '/v1/refunds' && s.body.includes('pi_after_expiry'))).toBe(true);
      expect(await stockOf(partsId)).toBe(1000);
    }
  });

  it('an order paid at Stripe before its hold ran out is marked paid by the expiry pass, not expired', async () => {
    const who = await account(t.base, uniqueEmail('paying'), 'Pay Ing');
    const partsId = await insertPart({ availableQty: 1000, price: 5 });
    const placed = await call<Order>(t.base, 'POST', '/order', {
      token: who.token,
      body: { partsId, qty: 100 },
    });
    expect(placed.status).toBe(201);
    const pi = await call(t.base, 'POST', '/create-payment-intent', {
      token: who.token,
      body: { orderId: placed.body._id },
    });
    expect(pi.status).toBe(200);
    const intentId = got(got(await OrderModel.findById(placed.body._id).lean()).paymentIntentId);
    // The customer paid; the webhook has not arrived yet when the hold runs out.
    succeeded.set(intentId, Math.round(placed.body.price * 100));
    jobs ??= startOrderJobs(
      t.env,
      readModelsFor(t.env).orders,
      stripePayments(createStripe(t.env)),
      createLogger(t.env),
    );
    expect(
      await eventually(
        async () => (await OrderModel.findById(placed.body._id).lean())?.paid === true,
        200,
        100,
      ),
    ).toBe(true);
    const stored = got(await OrderModel.findById(placed.body._id).lean());
    expect(stored).toMatchObject({ paid: true, transactionId: intentId, status: 'pending' });
    expect(stored.hold).not.toBe('released');
    expect(await stockOf(partsId)).toBe(900);
    expect(seen.filter((s) => s.path === '/v1/refunds' && s.body.includes(intentId))).toEqual([]);
  });
});
