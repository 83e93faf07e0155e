import Stripe from 'stripe';
import type { Order, OrderPaymentResult } from '@motoparts/contracts';
import { OrderModel } from '../orders/model';
import { cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { succeededEvent } from './support/stripe-proxy';

type Err = { error: { code: string; message: string } };

let t: TestApp;
let customer: Account;
let other: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');
// Only for its webhook helpers (signing, as Stripe does); no request goes through it.
const stripe = new Stripe('sk_test_123');

beforeAll(async () => {
  // One customer places many orders here (eleven in a few seconds); the per-customer cap and the
  // order rate limit have their own tests (order-rules, rate-limits), so neither applies here.
  t = await startTestApp('payments', {
    ADMIN_EMAILS: adminEmail,
    MAX_OPEN_ORDERS: '0',
    RATE_LIMIT_ORDER: '0/60',
  });
  ({ customer, other, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

async function newOrder(price = 12.5, qty = 100): Promise<Order> {
  const partsId = await insertPart({ price });
  const res = await call<Order>(t.base, 'POST', '/order', { token: customer.token, body: { partsId, qty } });
  expect(res.status).toBe(201);
  return res.body;
}

function postWebhook(payload: string, secret = t.env.STRIPE_WEBHOOK_SECRET, signature?: string) {
  return call(t.base, 'POST', '/webhooks/stripe', {
    raw: payload,
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signature ?? stripe.webhooks.generateTestHeaderString({ payload, secret }),
    },
  });
}

describe('POST /create-payment-intent', () => {
  it('charges the stored order amount in cents, whatever price the client sends', async () => {
    const order = await newOrder(89.99, 137); // 12328.63 dollars
    const res = await call<{ clientSecret: string }>(t.base, 'POST', '/create-payment-intent', {
      token: customer.token,
      body: { orderId: order._id, price: 1 },
    });
    expect(res.status).toBe(200);
    expect(res.body.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    // stripe-mock echoes the amount it was sent: it must be the order's, in cents.
    const stored = await OrderModel.findById(order._id).lean();
    expect(stored?.priceCents).toBe(1232863);
    expect(stored?.paymentIntentAmount).toBe(1232863);
    expect(stored?.paymentIntentId).toMatch(/^pi_/);
    expect(stored?.paid).toBe(false);
  });

  it("refuses someone else's order (403), an admin's request for it (403) and unknown orders (404)", async () => {
    const order = await newOrder();
    expect(
      (
        await call(t.base, 'POST', '/create-payment-intent', {
          token: other.token,
          body: { orderId: order._id },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await call(t.base, 'POST', '/create-payment-intent', {
          token: admin.token,
          body: { orderId: order._id },
        })
      ).status,
    ).toBe(403);
    const unknown = await call(t.base, 'POST', '/create-payment-intent', {
      token: customer.token,
      body: { orderId: '0123456789abcdef01234567' },
    });
    expect(unknown.status).toBe(404);
  });
});

describe('paying', () => {
  it('a PATCH with a transaction id the API did not create for the order is refused; the order stays unpaid', async () => {
    const order = await newOrder();
    const forged = await call<Err>(t.base, 'PATCH', `/order/${order._id}`, {
      token: customer.token,
      body: { parts: order._id, transactionId: 'pi_forged_123' },
    });
    expect(forged.status).toBe(409);
    expect(forged.body.error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/not started for this order/),
    });
    // Another order's payment is just as foreign.
    const other = await newOrder();
    const intent = await call(t.base, 'POST', '/create-payment-intent', {
      token: customer.token,
      body: { orderId: other._id },
    });
    expect(intent.status).toBe(200);
    const otherIntentId = (await OrderModel.findById(other._id).lean())?.paymentIntentId;
    expect(otherIntentId).toBeTruthy();
    const crossed = await call<Err>(t.base, 'PATCH', `/order/${order._id}`, {
      token: customer.token,
      body: { transactionId: otherIntentId },
    });
    expect(crossed.status).toBe(409);
    // The order's own PaymentIntent is asked about at Stripe, which has not confirmed it.
    const own = await call<OrderPaymentResult>(t.base, 'PATCH', `/order/${other._id}`, {
      token: customer.token,
      body: { transactionId: otherIntentId },
    });
    expect(own.status).toBe(200);
    expect(own.body.paid).toBe(false);
    expect(own.body.message).toMatch(/^Stripe has not confirmed this payment, so the order stays unpaid/);
    for (const id of [order._id, other._id]) {
      const stored = await OrderModel.findById(id).lean();
      expect(stored?.paid).toBe(false);
      expect(stored?.transactionId).toBeUndefined();
    }
  });

  it('a signed payment_intent.succeeded webhook marks the order paid once; replays change nothing', async () => {
    const order = await newOrder(24.99, 100);
    const payload = succeededEvent(order._id, 249900, 'pi_first');
    const first = await postWebhook(payload);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: true });
    let stored = await OrderModel.findById(order._id).lean();
    expect(stored?.paid).toBe(true);
    expect(stored?.transactionId).toBe('pi_first');
    const paidAt = stored?.paidAt?.getTime();

    const replay = await postWebhook(payload);
    expect(replay.status).toBe(200);
    const otherIntent = await postWebhook(succeededEvent(order._id, 249900, 'pi_second'));
    expect(otherIntent.status).toBe(200);
    stored = await OrderModel.findById(order._id).lean();
    expect(stored?.transactionId).toBe('pi_first');
    expect(stored?.paidAt?.getTime()).toBe(paidAt);

    const seen = await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: customer.token });
    expect(seen.body).toMatchObject({ paid: true, transactionId: 'pi_first' });
    const patch = await call<OrderPaymentResult>(t.base, 'PATCH', `/order/${order._id}`, {
      token: customer.token,
      body: { transactionId: 'pi_whatever' },
    });
    expect(patch.body).toMatchObject({ paid: true, message: 'This order is already paid.' });
    expect(patch.body.order.transactionId).toBe('pi_first');
    const intent = await call<Err>(t.base, 'POST', '/create-payment-intent', {
      token: customer.token,
      body: { orderId: order._id },
    });
    expect(intent.status).toBe(409);
    const cancel = await call(t.base, 'DELETE', `/order/${order._id}`, { token: customer.token });
    expect(cancel.status).toBe(409);
  });

  it('ignores a webhook whose amount does not match the order', async () => {
    const order = await newOrder(10, 100);
    const res = await postWebhook(succeededEvent(order._id, 100)); // $1 instead of $1000
    expect(res.status).toBe(200);
    expect((await OrderModel.findById(order._id).lean())?.paid).toBe(false);
  });

  it.each([
    ['a signature made with another secret', (p: string) => postWebhook(p, 'whsec_not_ours')],
    ['a garbage signature', (p: string) => postWebhook(p, undefined, 't=1,v1=deadbeef')],
    ['no signature', (p: string) => postWebhook(p, undefined, '')],
    [
      'a body changed after signing',
      (p: string) =>
        postWebhook(
          p.replace('"usd"', '"eur"'),
          undefined,
          stripe.webhooks.generateTestHeaderString({ payload: p, secret: t.env.STRIPE_WEBHOOK_SECRET }),
        ),
    ],
  ])('400s %s and leaves the order unpaid', async (_label, send) => {
    const order = await newOrder();
    const res = await send(succeededEvent(order._id, 125000));
    expect(res.status).toBe(400);
    expect((res.body as Err).error.code).toBe('BAD_REQUEST');
    expect((await OrderModel.findById(order._id).lean())?.paid).toBe(false);
  });

  it('checks the signature over the exact bytes, with room for events beyond the JSON body limit', async () => {
    const order = await newOrder();
    // ~300 KB of multi-byte UTF-8: past BODY_LIMIT_BYTES (100 KB), within the webhook's 512 KB.
    const event = (note: string) =>
      JSON.stringify({
        id: 'evt_large',
        object: 'event',
        type: 'payment_intent.created',
        data: {
          object: {
            id: 'pi_large',
            object: 'payment_intent',
            amount: 1,
            currency: 'usd',
            metadata: { orderId: order._id, note },
          },
        },
      });
    const large = await postWebhook(event('Bremsbeläge – €, ✓ '.repeat(12_000)));
    expect(large.status).toBe(200);
    const tooLarge = await postWebhook(event('x'.repeat(600 * 1024)));
    expect(tooLarge.status).toBe(413);
    expect((tooLarge.body as Err).error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('acknowledges other event types without changing anything', async () => {
    const order = await newOrder();
    const payload = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'payment_intent.created',
      data: {
        object: {
          id: 'pi_x',
          object: 'payment_intent',
          amount: 125000,
          currency: 'usd',
          metadata: { orderId: order._id },
        },
      },
    });
    const res = await postWebhook(payload);
    expect(res.status).toBe(200);
    expect((await OrderModel.findById(order._id).lean())?.paid).toBe(false);
  });
});
