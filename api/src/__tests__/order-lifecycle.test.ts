import type { ApiError, Checkout, Order } from '@motoparts/contracts';
import { createLogger } from '../lib/logger';
import { createStripe } from '../lib/stripe';
import { OrderModel, OrderRefundNoteModel } from '../orders/model';
import { recoverRefunds } from '../orders/refunds';
import { PartModel } from '../parts/model';
import { STRIPE_EVENT_TTL_MS, StripeEventModel, sweepStripeEvents } from '../payments/model';
import { stripePayments } from '../payments/service';
import { cast, uniqueEmail, type Account } from './support/auth';
import { got } from './support/faults';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { postEvent, postSucceededWebhook, startStripeProxy, type Seen } from './support/stripe-proxy';

// An order after its payment, against the real app, FerretDB, the emulator and stripe-mock behind a
// recording proxy: every allowed and refused move of the lifecycle, refunds from the shop (whole and
// partial, customer and admin, stock back exactly once, Stripe asked with one idempotency key),
// Stripe's own refund and dispute events, repeats, and a refund a crash left half done.

let t: TestApp;
let customer: Account;
let other: Account;
let admin: Account;
const seen: Seen[] = [];
let closeProxy: () => Promise<void>;
const adminEmail = uniqueEmail('lifeadmin');

beforeAll(async () => {
  const proxy = await startStripeProxy(process.env.STRIPE_API_BASE ?? '', seen);
  closeProxy = proxy.close;
  t = await startTestApp('order_lifecycle', {
    ADMIN_EMAILS: adminEmail,
    STRIPE_API_BASE: proxy.base,
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_STRIPE: '0/60',
    RATE_LIMIT_CHECKOUT: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, other, admin } = await cast(t.base, adminEmail));
});
afterAll(async () => {
  await t.close();
  await closeProxy();
});

type Err = ApiError;
const stockOf = async (id: string) => got(await PartModel.findById(id).lean()).availableQty;
const cents = (o: Pick<Order, 'price'>) => Math.round(o.price * 100);
let intents = 0;

/** A paid order of `qty` pieces at $2.50 on a part with 1,000 in stock. */
async function paidOrder(qty = 200): Promise<{ order: Order; partId: string; intent: string }> {
  const partId = await insertPart({ price: 2.5, minOrderQty: 100, availableQty: 1000 });
  const placed = await call<Order>(t.base, 'POST', '/order', {
    token: customer.token,
    body: { partsId: partId, qty },
  });
  expect(placed.status).toBe(201);
  const intent = `pi_life_${++intents}_${Date.now()}`;
  expect((await postSucceededWebhook(t, placed.body._id, cents(placed.body), intent)).status).toBe(200);
  const order = await call<Order>(t.base, 'GET', `/order/${placed.body._id}`, { token: customer.token });
  expect(order.body.paid).toBe(true);
  return { order: order.body, partId, intent };
}

const setStatus = (id: string, body: Record<string, unknown>, who = admin) =>
  call<Order & Err>(t.base, 'PATCH', `/order/${id}/status`, { token: who.token, body });
const refund = (id: string, who: Account, body: Record<string, unknown> = {}) =>
  call<Order & Err>(t.base, 'POST', `/order/${id}/refund`, { token: who.token, body });
const events = (o: Order) => (o.history ?? []).map((e) => e.event);
const refundsSeen = () => seen.filter((s) => s.method === 'POST' && s.path === '/v1/refunds');

describe('shipping rules', () => {
  it('ships only paid orders, with a carrier and tracking number; takes a shipment back; then delivers', async () => {
    const partId = await insertPart({ availableQty: 1000 });
    const unpaid = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: partId, qty: 100 },
    });
    const refused = await setStatus(unpaid.body._id, { status: 'shipped' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe('This order is not paid yet; only paid orders ship.');
    expect(events((await setStatus(unpaid.body._id, { status: 'pending' })).body)).toEqual(['placed']);

    const { order } = await paidOrder();
    const shipped = await setStatus(order._id, {
      status: 'shipped',
      carrier: 'DHL',
      trackingNumber: 'JD0146 0000 1234',
    });
    expect(shipped.status).toBe(200);
    expect(shipped.body).toMatchObject({
      status: 'shipped',
      carrier: 'DHL',
      trackingNumber: 'JD0146 0000 1234',
    });
    expect(events(shipped.body)).toEqual(['placed', 'paid', 'shipped']);
    expect(shipped.body.history?.[2]?.note).toBe('DHL JD0146 0000 1234');
    // Shipped again: nothing moves (no second event), a new tracking number is kept.
    const again = await setStatus(order._id, { status: 'shipped', trackingNumber: 'JD0146 0000 9999' });
    expect(again.body.trackingNumber).toBe('JD0146 0000 9999');
    expect(events(again.body)).toEqual(['placed', 'paid', 'shipped']);

    const back = await setStatus(order._id, { status: 'pending' });
    expect(back.status).toBe(200);
    expect(back.body.status).toBe('pending');
    expect(back.body.carrier).toBeUndefined();
    expect((await setStatus(order._id, { status: 'delivered' })).body.error.message).toBe(
      'Only a shipped order can be delivered.',
    );
    await setStatus(order._id, { status: 'shipped' });
    const delivered = await setStatus(order._id, { status: 'delivered' });
    expect(delivered.body.status).toBe('delivered');
    expect(events(delivered.body)).toEqual([
      'placed',
      'paid',
      'shipped',
      'unshipped',
      'shipped',
      'delivered',
    ]);
    for (const status of ['pending', 'shipped']) {
      const late = await setStatus(order._id, { status });
      expect(late.status).toBe(409);
      expect(late.body.error.message).toBe('This order was delivered; its shipment can no longer change.');
    }
    // The customer sees the same history; a customer cannot move it.
    const mine = await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: customer.token });
    expect(events(mine.body)).toEqual(events(delivered.body));
    expect((await setStatus(order._id, { status: 'pending' }, customer)).status).toBe(403);
  });

  it('refuses a tracking number that is not letters, digits, spaces or dashes', async () => {
    const { order } = await paidOrder();
    const bad = await setStatus(order._id, { status: 'shipped', trackingNumber: '<script>' });
    expect(bad.status).toBe(400);
  });

  it('expired orders do not ship', async () => {
    const partId = await insertPart({ availableQty: 1000 });
    const placed = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: partId, qty: 100 },
    });
    await OrderModel.updateOne({ _id: placed.body._id }, { $set: { status: 'expired', hold: 'released' } });
    const res = await setStatus(placed.body._id, { status: 'shipped' });
    expect(res.status).toBe(409);
  });
});

describe('refunds from the shop', () => {
  it('Cancel and refund: the customer gets the whole amount back once, the pieces go back to stock once', async () => {
    const { order, partId, intent } = await paidOrder(300);
    expect(await stockOf(partId)).toBe(700);
    seen.length = 0;
    // Five presses at once: one refund at Stripe, one stock return.
    const answers = await Promise.all(Array.from({ length: 5 }, () => refund(order._id, customer)));
    expect(answers.filter((a) => a.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const a of answers) expect([200, 409]).toContain(a.status);
    const now = await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: customer.token });
    expect(now.body).toMatchObject({ status: 'refunded', paid: true, refunded: 750 });
    expect(events(now.body)).toEqual(['placed', 'paid', 'refunded']);
    expect(await stockOf(partId)).toBe(1000);
    const keys = new Set(refundsSeen().map((r) => r.idempotencyKey));
    expect(keys).toEqual(new Set([`motoparts-refund-${order._id}-0-75000`]));
    const body = new URLSearchParams(got(refundsSeen()[0]).body);
    expect(body.get('payment_intent')).toBe(intent);
    expect(body.get('amount')).toBe('75000');
    expect(body.get('metadata[orderId]')).toBe(order._id);
    // Once refunded: again is a 409, and nothing moves.
    const again = await refund(order._id, customer);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This order has already been refunded.');
    expect(await stockOf(partId)).toBe(1000);
    expect((await setStatus(order._id, { status: 'shipped' })).body.error.message).toBe(
      'This order was refunded; it does not ship.',
    );
  });

  it('customers refund only their own, whole, unshipped orders', async () => {
    const { order } = await paidOrder();
    expect((await refund(order._id, other)).status).toBe(403);
    expect((await refund(order._id, customer, { amount: 10 })).status).toBe(403);
    await setStatus(order._id, { status: 'shipped' });
    const shipped = await refund(order._id, customer);
    expect(shipped.status).toBe(409);
    expect(shipped.body.error.message).toMatch(/already shipped/);
    const unpaid = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: await insertPart(), qty: 100 },
    });
    expect((await refund(unpaid.body._id, customer)).body.error.message).toBe(
      'This order is not paid, so there is nothing to refund: cancel it instead.',
    );
  });

  it('an admin refunds part of a shipped order, then the rest; shipped pieces do not come back', async () => {
    const { order, partId } = await paidOrder(200); // $500
    await setStatus(order._id, { status: 'shipped' });
    const part = await refund(order._id, admin, { amount: 120.5 });
    expect(part.status).toBe(200);
    expect(part.body).toMatchObject({ status: 'shipped', refunded: 120.5 });
    expect(events(part.body).at(-1)).toBe('partlyRefunded');
    const over = await refund(order._id, admin, { amount: 400 });
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe('At most $379.50 of this order can still be refunded.');
    const rest = await refund(order._id, admin);
    expect(rest.body).toMatchObject({ status: 'refunded', refunded: 500 });
    expect(await stockOf(partId)).toBe(800);
  });

  it('a checkout line refunds that line’s amount of the checkout’s one payment', async () => {
    const a = await insertPart({ price: 4, availableQty: 1000 });
    const b = await insertPart({ price: 5, availableQty: 1000 });
    for (const [partId, qty] of [
      [a, 100],
      [b, 200],
    ] as const) {
      expect(
        (await call(t.base, 'PUT', `/cart/lines/${partId}`, { token: customer.token, body: { qty } })).status,
      ).toBe(200);
    }
    const placed = await call<Checkout>(t.base, 'POST', '/checkout', {
      token: customer.token,
      body: { address: '1 Pit Lane, Brno', phone: '+420 555 000 111' },
    });
    expect(placed.status).toBe(201);
    const intent = `pi_life_checkout_${Date.now()}`;
    const paid = await postSucceededWebhook(t, placed.body.checkoutId, 140000, intent, {
      checkoutId: placed.body.checkoutId,
    });
    expect(paid.status).toBe(200);
    const line = got(placed.body.orders.find((o) => o.partsId === b));
    seen.length = 0;
    const res = await refund(line._id, customer);
    expect(res.body).toMatchObject({ status: 'refunded', refunded: 1000 });
    const body = new URLSearchParams(got(refundsSeen()[0]).body);
    expect([body.get('payment_intent'), body.get('amount'), body.get('metadata[checkoutId]')]).toEqual([
      intent,
      '100000',
      placed.body.checkoutId,
    ]);
    expect(await stockOf(b)).toBe(1000);
    expect(await stockOf(a)).toBe(900);
  });

  it('a refund a crash left recorded is finished by the recovery pass with the same key', async () => {
    const { order, partId } = await paidOrder(100);
    const key = `motoparts-refund-${order._id}-0-25000`;
    await OrderModel.updateOne(
      { _id: order._id },
      { $set: { refunding: { amountCents: 25000, key, source: 'shop', at: new Date(Date.now() - 60_000) } } },
    );
    // What the refunding request left: its note, then the record on the order.
    await OrderRefundNoteModel.create({ _id: order._id, at: new Date(Date.now() - 60_000) });
    expect((await refund(order._id, customer)).body.error.message).toBe(
      'A refund of this order is already under way.',
    );
    seen.length = 0;
    const payments = stripePayments(createStripe(t.env));
    expect(await recoverRefunds(payments, new Date(), createLogger(t.env))).toBe(1);
    expect(refundsSeen().map((r) => r.idempotencyKey)).toEqual([key]);
    const now = await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: customer.token });
    expect(now.body).toMatchObject({ status: 'refunded', refunded: 250 });
    expect(await stockOf(partId)).toBe(1000);
    expect(await recoverRefunds(payments, new Date(), createLogger(t.env))).toBe(0);
    // Every refund of this file has finished: no note is left for the pass to read.
    expect(await OrderRefundNoteModel.countDocuments()).toBe(0);
  });
});

describe("Stripe's own events", () => {
  const charge = (intent: string, amount: number, refunded: number) => ({
    id: `ch_${intent}`,
    object: 'charge',
    payment_intent: intent,
    amount,
    amount_refunded: refunded,
    currency: 'usd',
  });

  it('charge.refunded from the dashboard: a partial amount is recorded, the whole refunds the order', async () => {
    const { order, partId, intent } = await paidOrder(200); // $500
    expect((await postEvent(t, 'charge.refunded', charge(intent, 50000, 10000))).status).toBe(200);
    let now = (await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: admin.token })).body;
    expect(now).toMatchObject({ status: 'pending', paid: true, refunded: 100 });
    // Stripe repeats it (a new delivery of the same event, or the next event with the same total).
    const repeat = charge(intent, 50000, 10000);
    for (let i = 0; i < 3; i++)
      expect((await postEvent(t, 'charge.refunded', repeat, 'evt_same_refund')).status).toBe(200);
    expect((await postEvent(t, 'charge.refunded', repeat)).status).toBe(200);
    now = (await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: admin.token })).body;
    expect(now.refunded).toBe(100);
    expect(events(now)).toEqual(['placed', 'paid', 'partlyRefunded']);
    await postEvent(t, 'charge.refunded', charge(intent, 50000, 50000));
    now = (await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: admin.token })).body;
    expect(now).toMatchObject({ status: 'refunded', refunded: 500 });
    expect(await stockOf(partId)).toBe(1000);
  });

  it('charge.refunded for a refund the shop made itself changes nothing more', async () => {
    const { order, intent } = await paidOrder(100);
    expect((await refund(order._id, customer)).status).toBe(200);
    const before = (await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: admin.token })).body;
    expect((await postEvent(t, 'charge.refunded', charge(intent, 25000, 25000))).status).toBe(200);
    const after = (await call<Order>(t.base, 'GET', `/order/${order._id}`, { token: admin.token })).body;
    expect(after).toEqual(before);
  });

  it('a dispute holds the order (no shipping, no refund); won, it is as before; lost, it is refunded without stock', async () => {
    const won = await paidOrder(100);
    const dispute = (intent: string, status: string) => ({
      id: `dp_${intent}`,
      object: 'dispute',
      payment_intent: intent,
      charge: `ch_${intent}`,
      amount: 25000,
      status,
    });
    expect((await postEvent(t, 'charge.dispute.created', dispute(won.intent, 'needs_response'))).status).toBe(
      200,
    );
    let now = (await call<Order>(t.base, 'GET', `/order/${won.order._id}`, { token: admin.token })).body;
    expect(now.status).toBe('disputed');
    expect((await setStatus(won.order._id, { status: 'shipped' })).body.error.message).toBe(
      'The payment of this order is disputed; it cannot ship until the dispute is closed.',
    );
    expect((await refund(won.order._id, admin)).status).toBe(409);
    await postEvent(t, 'charge.dispute.closed', dispute(won.intent, 'won'));
    now = (await call<Order>(t.base, 'GET', `/order/${won.order._id}`, { token: admin.token })).body;
    expect(now.status).toBe('pending');
    expect(events(now)).toEqual(['placed', 'paid', 'disputed', 'disputeWon']);
    expect((await setStatus(won.order._id, { status: 'shipped' })).status).toBe(200);

    const lost = await paidOrder(100);
    await postEvent(t, 'charge.dispute.created', dispute(lost.intent, 'needs_response'));
    await postEvent(t, 'charge.dispute.closed', dispute(lost.intent, 'lost'));
    now = (await call<Order>(t.base, 'GET', `/order/${lost.order._id}`, { token: admin.token })).body;
    expect(now).toMatchObject({ status: 'refunded', refunded: 250 });
    expect(events(now)).toEqual(['placed', 'paid', 'disputed', 'disputeLost']);
    expect(await stockOf(lost.partId)).toBe(900);
  });

  it('acknowledges event types it does not use, and repeats of any event; forgets them after a month', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await postEvent(
        t,
        'customer.created',
        { id: 'cus_1', object: 'customer' },
        'evt_unknown_1',
      );
      expect(res.status).toBe(200);
    }
    expect(await StripeEventModel.exists({ _id: 'evt_unknown_1' })).toBeTruthy();
    await StripeEventModel.create({
      _id: 'evt_old',
      type: 'customer.created',
      at: new Date(Date.now() - STRIPE_EVENT_TTL_MS - 1000),
    });
    expect(await sweepStripeEvents()).toBe(1);
    expect(await StripeEventModel.exists({ _id: 'evt_old' })).toBeNull();
    expect(await StripeEventModel.exists({ _id: 'evt_unknown_1' })).toBeTruthy();
  });

  it('a payment_intent.succeeded is kept with the payment it made; its repeat changes nothing', async () => {
    const partId = await insertPart({ availableQty: 1000 });
    const placed = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: partId, qty: 100 },
    });
    const object = {
      id: 'pi_life_kept',
      object: 'payment_intent',
      amount: cents(placed.body),
      currency: 'usd',
      status: 'succeeded',
      metadata: { orderId: placed.body._id },
    };
    expect((await postEvent(t, 'payment_intent.succeeded', object, 'evt_life_kept')).status).toBe(200);
    const paid = got(await OrderModel.findById(placed.body._id).lean());
    expect([paid.paid, paid.transactionId, paid.paidEventId]).toEqual([
      true,
      'pi_life_kept',
      'evt_life_kept',
    ]);
    expect((await postEvent(t, 'payment_intent.succeeded', object, 'evt_life_kept')).status).toBe(200);
    expect(got(await OrderModel.findById(placed.body._id).lean())).toEqual(paid);
  });

  it('the same payment_intent.succeeded five times at once pays the order once', async () => {
    const partId = await insertPart({ availableQty: 1000 });
    const placed = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: partId, qty: 100 },
    });
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        postSucceededWebhook(t, placed.body._id, cents(placed.body), 'pi_life_five'),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    const doc = got(await OrderModel.findById(placed.body._id).lean());
    expect(doc.paid).toBe(true);
    // One receipt queued: placed, then paid.
    expect(doc.outbox).toEqual(['placed', 'paid']);
  });
});
