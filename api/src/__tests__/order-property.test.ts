import type { Checkout, Order } from '@motoparts/contracts';
import { createStripe } from '../lib/stripe';
import { createLogger } from '../lib/logger';
import { CheckoutModel, OrderModel, type OrderDoc } from '../orders/model';
import { recoverCheckouts } from '../orders/checkout';
import { PartModel } from '../parts/model';
import { expireDue } from '../orders/jobs';
import { stripePayments } from '../payments/service';
import { readModelsFor } from '../read-models';
import { openOrdersCapMessage, orderRules } from '../orders/rules';
import { flushJournal, recoverOnce } from '../orders/stock';
import { account, cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { got } from './support/faults';
import { postSucceededWebhook } from './support/stripe-proxy';

// A seeded random sequence of 500 operations from several customers and an admin (orders,
// cancels, restocks, payments, shipments, expiries, recovery passes) over HTTP against the real
// app and FerretDB; afterwards `availableQty + Σ qty of live orders == stock received` exactly.

jest.setTimeout(300_000);

/** Low enough that the seeded sequence meets it. */
const CAP = 3;
let t: TestApp;
let admin: Account;
const customers: Account[] = [];
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  t = await startTestApp('order_property', {
    ADMIN_EMAILS: adminEmail,
    MAX_OPEN_ORDERS: String(CAP),
    // Hundreds of orders from a few accounts: the per-account order limit is not under test here.
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_CHECKOUT: '0/60',
    RATE_LIMIT_STRIPE: '0/60',
  });
  ({ admin } = await cast(t.base, adminEmail));
  for (let i = 0; i < 4; i++) customers.push(await account(t.base, uniqueEmail(`prop${i}`), `Prop ${i}`));
});
afterAll(() => t.close());

function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

async function invariant(received: Map<string, number>): Promise<string[]> {
  const problems: string[] = [];
  const orders = await OrderModel.find({}).lean<OrderDoc[]>();
  const live = new Map<string, number>();
  for (const o of orders) {
    if (o.hold === 'reserving' || o.hold === 'releasing') problems.push(`order ${String(o._id)} ${o.hold}`);
    if (o.hold === 'released' || o.hold === 'void' || o.status === 'expired') continue;
    live.set(String(o.partId), (live.get(String(o.partId)) ?? 0) + o.quantity);
  }
  for (const [id, want] of received) {
    const part = got(await PartModel.findById(id).lean());
    const sum = part.availableQty + (live.get(id) ?? 0);
    if (sum !== want) problems.push(`part ${id}: ${part.availableQty} + ${live.get(id) ?? 0} ≠ ${want}`);
  }
  return problems;
}

it('500 random orders, cancels, restocks, payments, shipments and expiries keep the stock invariant exact', async () => {
  const random = rng(20261123);
  const pick = <T>(list: T[]): T => got(list[Math.floor(random() * list.length)]);
  const received = new Map<string, number>();
  const partIds: string[] = [];
  for (let i = 0; i < 3; i++) {
    const stock = 500 + i * 250;
    const id = await insertPart({ availableQty: stock, price: 3 + i });
    partIds.push(id);
    received.set(id, stock);
  }
  const rules = orderRules(t.env);
  const payments = stripePayments(createStripe(t.env));
  const reads = readModelsFor(t.env).orders;
  const log = createLogger(t.env);
  const tally: Record<string, number> = {};
  const count = (what: string) => (tally[what] = (tally[what] ?? 0) + 1);

  /** Orders this test knows to be open (unpaid, pending), with their owner. */
  const open: { order: Order; who: Account }[] = [];
  for (let step = 0; step < 500; step++) {
    const r = random();
    if (r < 0.4) {
      const who = pick(customers);
      const mine = open.filter((o) => o.who === who).length;
      const res = await call<Order>(t.base, 'POST', '/order', {
        token: who.token,
        body: { partsId: pick(partIds), qty: 100 + 50 * Math.floor(random() * 7) },
      });
      expect([201, 409]).toContain(res.status);
      // The cap refuses exactly when the customer has CAP open orders (other 409s: out of stock).
      const { error } = res.body as unknown as { error?: { message?: string } };
      const capped = res.status === 409 && error?.message === openOrdersCapMessage(CAP);
      expect({ mine, capped }).toEqual({ mine, capped: mine >= CAP });
      if (res.status === 201) open.push({ order: res.body, who });
      count(capped ? 'order 409 cap' : `order ${res.status}`);
    } else if (r < 0.58 && open.length > 0) {
      const { order, who } = got(open.splice(Math.floor(random() * open.length), 1)[0]);
      const res = await call(t.base, 'DELETE', `/order/${order._id}`, { token: who.token });
      expect(res.status).toBe(200);
      count('cancel');
    } else if (r < 0.68) {
      const id = pick(partIds);
      const quantity = 50 + Math.floor(random() * 400);
      const res = await call(t.base, 'PUT', `/restockQty/${id}`, { token: admin.token, body: { quantity } });
      expect(res.status).toBe(200);
      received.set(id, got(received.get(id)) + quantity);
      count('restock');
    } else if (r < 0.82 && open.length > 0) {
      const { order } = got(open.splice(Math.floor(random() * open.length), 1)[0]);
      const res = await postSucceededWebhook(t, order._id, Math.round(order.price * 100), `pi_prop_${step}`);
      expect(res.status).toBe(200);
      expect((await OrderModel.findById(order._id).lean())?.paid).toBe(true);
      if (random() < 0.5) {
        const shipped = await call(t.base, 'PATCH', `/order/${order._id}/status`, {
          token: admin.token,
          body: { status: 'shipped' },
        });
        expect(shipped.status).toBe(200);
        count('ship');
      }
      count('pay');
    } else if (r < 0.9 && open.length > 0) {
      // Expire every open order placed up to a randomly chosen one, as the timer would later.
      const chosen = pick(open).order;
      const now = new Date(got(chosen.createdAt)).getTime() + rules.holdMs + 1;
      const expired = await expireDue(rules, reads, payments, log, now);
      const before = open.length;
      for (let i = open.length - 1; i >= 0; i--) {
        if (new Date(got(open[i]?.order.createdAt)).getTime() <= now - rules.holdMs) open.splice(i, 1);
      }
      expect(expired).toBe(before - open.length);
      count('expire');
    } else {
      const report = await recoverOnce({ graceMs: 0 });
      expect(report.undone + report.finished + report.orphansReturned).toBe(0);
      await flushJournal();
      count('recover');
    }
    if (step % 100 === 99) expect(await invariant(received)).toEqual([]);
  }
  await flushJournal();
  expect(await invariant(received)).toEqual([]);
  // The journal is cleaned up once every step is recorded on its order.
  await recoverOnce({ graceMs: 0 });
  await flushJournal();
  for (const id of partIds) expect(got(await PartModel.findById(id).lean()).journal ?? []).toEqual([]);
  // The sequence really mixed everything (seeded, so this is stable).
  expect(Object.keys(tally)).toEqual(
    expect.arrayContaining([
      'order 201',
      'order 409',
      'order 409 cap',
      'cancel',
      'restock',
      'pay',
      'ship',
      'expire',
      'recover',
    ]),
  );
});

it('300 random carts, checkouts, their payments, cancels and expiries among single orders keep the invariant and every checkout whole', async () => {
  const random = rng(20261127);
  const pick = <T>(list: T[]): T => got(list[Math.floor(random() * list.length)]);
  const received = new Map<string, number>();
  const partIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    const stock = 600 + i * 300;
    const id = await insertPart({ availableQty: stock, price: 2 + i });
    partIds.push(id);
    received.set(id, stock);
  }
  const rules = orderRules(t.env);
  const payments = stripePayments(createStripe(t.env));
  const reads = readModelsFor(t.env).orders;
  const log = createLogger(t.env);
  const tally: Record<string, number> = {};
  const count = (what: string) => (tally[what] = (tally[what] ?? 0) + 1);

  /** Holds this test knows to be open: a single order or a checkout, with its owner and time. */
  type Hold = { who: Account; at: number } & ({ order: Order } | { checkout: Checkout });
  const open: Hold[] = [];
  const atOf = (iso: string | undefined) => new Date(got(iso)).getTime();
  const wholeness = async () => {
    const problems: string[] = [];
    for (const co of await CheckoutModel.find({ 'lines.partId': { $in: partIds } }).lean()) {
      const present = await OrderModel.countDocuments({
        _id: { $in: co.lines.map((l) => l.orderId) },
        hold: { $ne: 'void' },
      });
      const whole =
        co.state === 'placed' || co.state === 'paid'
          ? present === co.lines.length
          : co.state === 'failed'
            ? present === 0
            : co.state === 'released' && (present === 0 || present === co.lines.length);
      if (!whole) problems.push(`${co._id}: ${co.state} with ${present} of ${co.lines.length}`);
    }
    return problems;
  };

  for (let step = 0; step < 300; step++) {
    const r = random();
    const who = pick(customers);
    const mine = open.filter((h) => h.who === who).length;
    if (r < 0.25) {
      const res = await call<Order>(t.base, 'POST', '/order', {
        token: who.token,
        body: { partsId: pick(partIds), qty: 100 + 50 * Math.floor(random() * 5) },
      });
      expect([201, 409]).toContain(res.status);
      const { error } = res.body as unknown as { error?: { message?: string } };
      const capped = res.status === 409 && error?.message === openOrdersCapMessage(CAP);
      expect({ mine, capped }).toEqual({ mine, capped: mine >= CAP });
      if (res.status === 201) open.push({ order: res.body, who, at: atOf(res.body.createdAt) });
      count(capped ? 'order 409 cap' : `order ${res.status}`);
    } else if (r < 0.5) {
      const lines = 1 + Math.floor(random() * 3);
      for (let k = 0; k < lines; k++) {
        await call(t.base, 'PUT', `/cart/lines/${pick(partIds)}`, {
          token: who.token,
          body: { qty: 100 + 50 * Math.floor(random() * 4) },
        });
      }
      const res = await call<Checkout>(t.base, 'POST', '/checkout', {
        token: who.token,
        body: { address: '9 Random Road', phone: '+1 555 0123' },
      });
      expect([201, 409]).toContain(res.status);
      const { error } = res.body as unknown as { error?: { message?: string } };
      const capped = res.status === 409 && error?.message === openOrdersCapMessage(CAP);
      expect({ mine, capped }).toEqual({ mine, capped: mine >= CAP });
      if (res.status === 201) {
        open.push({
          checkout: res.body,
          who,
          at: Math.min(...res.body.orders.map((o) => atOf(o.createdAt))),
        });
      } else {
        // What stays in the cart (short or refused lines) is emptied for the next round.
        for (const line of (
          await call<{ lines: { partId: string }[] }>(t.base, 'GET', '/cart', { token: who.token })
        ).body.lines) {
          await call(t.base, 'DELETE', `/cart/lines/${line.partId}`, { token: who.token });
        }
      }
      count(capped ? 'checkout 409 cap' : `checkout ${res.status}`);
    } else if (r < 0.6 && open.some((h) => 'checkout' in h)) {
      const holds = open.filter((h) => 'checkout' in h);
      const hold = pick(holds);
      open.splice(open.indexOf(hold), 1);
      if (!('checkout' in hold)) continue;
      const res = await call(t.base, 'DELETE', `/checkout/${hold.checkout.checkoutId}`, {
        token: hold.who.token,
      });
      expect(res.status).toBe(200);
      count('cancel checkout');
    } else if (r < 0.72 && open.length > 0) {
      const hold = pick(open);
      open.splice(open.indexOf(hold), 1);
      if ('checkout' in hold) {
        const { checkoutId, total } = hold.checkout;
        const res = await postSucceededWebhook(t, '', Math.round(total * 100), `pi_cprop_${step}`, {
          checkoutId,
        });
        expect(res.status).toBe(200);
        const lines = await OrderModel.find({ checkoutId }).lean();
        expect(lines.map((o) => o.paid)).toEqual(hold.checkout.orders.map(() => true));
        count('pay checkout');
      } else {
        const res = await postSucceededWebhook(
          t,
          hold.order._id,
          Math.round(hold.order.price * 100),
          `pi_oprop_${step}`,
        );
        expect(res.status).toBe(200);
        count('pay order');
      }
    } else if (r < 0.8) {
      const id = pick(partIds);
      const quantity = 50 + Math.floor(random() * 400);
      const res = await call(t.base, 'PUT', `/restockQty/${id}`, { token: admin.token, body: { quantity } });
      expect(res.status).toBe(200);
      received.set(id, got(received.get(id)) + quantity);
      count('restock');
    } else if (r < 0.88 && open.length > 0) {
      const now = pick(open).at + rules.holdMs + 1;
      const expired = await expireDue(rules, reads, payments, log, now);
      const before = open.length;
      for (let i = open.length - 1; i >= 0; i--) if (got(open[i]).at <= now - rules.holdMs) open.splice(i, 1);
      expect(expired).toBe(before - open.length);
      count('expire');
    } else {
      const checkouts = await recoverCheckouts({ graceMs: 0 });
      expect(checkouts.rolledBack + checkouts.released).toBe(0);
      const report = await recoverOnce({ graceMs: 0 });
      expect(report.undone + report.finished + report.orphansReturned).toBe(0);
      await flushJournal();
      count('recover');
    }
    if (step % 50 === 49) {
      expect(await invariant(received)).toEqual([]);
      expect(await wholeness()).toEqual([]);
    }
  }
  await flushJournal();
  expect(await invariant(received)).toEqual([]);
  expect(await wholeness()).toEqual([]);
  expect(Object.keys(tally)).toEqual(
    expect.arrayContaining([
      'order 201',
      'checkout 201',
      'checkout 409',
      'cancel checkout',
      'pay checkout',
      'expire',
      'recover',
    ]),
  );
});
