import type { ApiError, Order, Sales } from '@motoparts/contracts';
import { shopDays } from '../lib/shop-days';
import { OrderModel } from '../orders/model';
import { PartModel } from '../parts/model';
import { MemorySalesReads } from '../sales/read-models';
import { cast, uniqueEmail, type Account } from './support/auth';
import { eventually, got } from './support/faults';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { postSucceededWebhook } from './support/stripe-proxy';

// GET /sales against the real app in a shop whose days are not UTC's (Asia/Kolkata, UTC+05:30: a
// half-hour offset, so neither a UTC date nor an hour rounding passes): orders placed, paid through
// Stripe's signed webhook, refunded in part and whole through the admin's refund (stripe-mock),
// paid on both sides of the shop's midnight; every figure is compared with sums this file computes
// from the orders it made. Runs with each read model (READ_MODELS=database and the default).

const ZONE = 'Asia/Kolkata';
const OFFSET_MS = 5.5 * 3_600_000;
const DAY_MS = 86_400_000;

let t: TestApp;
let customer: Account;
let other: Account;
let admin: Account;
const adminEmail = uniqueEmail('salesadmin');

beforeAll(async () => {
  t = await startTestApp('sales', {
    ADMIN_EMAILS: adminEmail,
    SHOP_TIME_ZONE: ZONE,
    LOW_STOCK_FACTOR: '3',
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_STRIPE: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, other, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

const sales = (days: number | string, who: Account | null = admin) =>
  call<Sales & ApiError>(t.base, 'GET', `/sales?days=${days}`, { token: who?.token });

/** The shop's date of an instant, by the zone's fixed offset (Kolkata keeps no summer time). */
const shopDate = (ms: number) => new Date(ms + OFFSET_MS).toISOString().slice(0, 10);
/** When today began in the shop. */
const todayStart = () => Math.floor((Date.now() + OFFSET_MS) / DAY_MS) * DAY_MS - OFFSET_MS;
/** The window's dates, oldest first, as the test reckons them. */
const windowDates = (days: number) =>
  Array.from({ length: days }, (_, i) => shopDate(todayStart() + (i - days + 1) * DAY_MS));

let intents = 0;
async function place(partId: string, qty: number, who = customer): Promise<Order> {
  const res = await call<Order>(t.base, 'POST', '/order', {
    token: who.token,
    body: { partsId: partId, qty },
  });
  expect(res.status).toBe(201);
  return res.body;
}
/** Placed and paid through Stripe's webhook; the payment then moved to `paidAt` (the test cannot wait for midnight). */
async function paid(partId: string, qty: number, paidAt?: number): Promise<Order> {
  const order = await place(partId, qty);
  const cents = Math.round(order.price * 100);
  expect(
    (await postSucceededWebhook(t, order._id, cents, `pi_sales_${++intents}_${Date.now()}`)).status,
  ).toBe(200);
  if (paidAt !== undefined)
    await OrderModel.updateOne({ _id: order._id }, { $set: { paidAt: new Date(paidAt) } });
  return order;
}

/** Revenue per shop day and per part, and orders by state, from the database's orders as they are now. */
async function expected(days: number) {
  const dates = windowDates(days);
  const byDay = new Map(dates.map((d) => [d, 0]));
  const byPart = new Map<string, { qty: number; cents: number }>();
  const states: Record<string, number> = {};
  const first = todayStart() - (days - 1) * DAY_MS;
  const orders = await OrderModel.find({}).lean();
  for (const o of orders) {
    const placedAt = got(o.createdAt).getTime();
    if (placedAt >= first) {
      const state = !o.paid && o.status === 'pending' ? 'unpaid' : o.status;
      states[state] = (states[state] ?? 0) + 1;
    }
    if (!o.paid) continue;
    const at = (o.paidAt ?? got(o.createdAt)).getTime();
    const day = shopDate(at);
    if (!byDay.has(day)) continue;
    const net = got(o.priceCents) - (o.refundedCents ?? 0);
    byDay.set(day, (byDay.get(day) ?? 0) + net);
    const part = byPart.get(String(o.partId)) ?? { qty: 0, cents: 0 };
    part.cents += net;
    if (net > 0) part.qty += o.quantity;
    byPart.set(String(o.partId), part);
  }
  return { dates, byDay, byPart, states };
}

describe('GET /sales', () => {
  let partA: string;
  let partB: string;
  let soldOut: string;
  let low: string;

  beforeAll(async () => {
    partA = await insertPart({
      name: 'Sales brake pad',
      price: 2.5,
      minOrderQty: 100,
      availableQty: 100_000,
    });
    partB = await insertPart({ name: 'Sales chain', price: 3.1, minOrderQty: 100, availableQty: 100_000 });
    soldOut = await insertPart({ name: 'Sales sold-out mirror', minOrderQty: 100, availableQty: 40 });
    low = await insertPart({ name: 'Sales low lever', minOrderQty: 100, availableQty: 250 });
    await insertPart({ name: 'Sales plenty bolt', minOrderQty: 100, availableQty: 300 });
  });

  it('refuses anonymous callers (401), customers (403) and a bad number of days (400)', async () => {
    expect((await sales(30, null)).status).toBe(401);
    const refused = await sales(30, customer);
    expect(refused.status).toBe(403);
    for (const bad of ['0', '367', '1.5', 'abc', '-3', '']) {
      const res = await sales(bad);
      expect({ bad, status: res.status }).toEqual({ bad, status: 400 });
      expect(res.body.error.message).toBe('Invalid query: days');
      expect(res.body.error.details).toEqual([
        { path: 'days', message: 'days must be a whole number from 1 to 366' },
      ]);
    }
    expect((await call(t.base, 'GET', '/sales', { token: admin.token })).status).toBe(200);
  });

  it(
    'counts paid orders by the shop day they were paid, net of refunds, every day of the window listed',
    async () => {
      // The test and the API each work out "today": never let the shop's midnight fall between them.
      const untilMidnight = todayStart() + DAY_MS - Date.now();
      if (untilMidnight < 5 * 60_000) await new Promise((r) => setTimeout(r, untilMidnight + 1_000));
      // An order paid before the payment time was recorded counts on the day it was placed.
      const legacy = await paid(partB, 100);
      await OrderModel.updateOne({ _id: legacy._id }, { $unset: { paidAt: 1 } });

      const midnight = todayStart();
      // Either side of the shop's midnight (both the same UTC date: 18:29 and 18:31 UTC).
      await paid(partA, 100, midnight - 60_000);
      await paid(partA, 300, midnight + 60_000);
      // Two days back, and outside a 3-day window but inside 30 days.
      await paid(partB, 200, midnight - 2 * DAY_MS + 30 * 60_000);
      await paid(partB, 100, midnight - 5 * DAY_MS);
      // Refunded in part ($1.00 of $250) and in whole.
      const partly = await paid(partA, 100, midnight - DAY_MS + 3_600_000);
      const whole = await paid(partB, 100, midnight + 120_000);
      const partRefund = await call<Order>(t.base, 'POST', `/order/${partly._id}/refund`, {
        token: admin.token,
        body: { amount: 1 },
      });
      expect(partRefund.status).toBe(200);
      expect(
        (await call(t.base, 'POST', `/order/${whole._id}/refund`, { token: admin.token, body: {} })).status,
      ).toBe(200);
      // Unpaid and expired orders bring nothing.
      await place(partA, 100);
      const expired = await place(partB, 100);
      await OrderModel.updateOne({ _id: expired._id }, { $set: { status: 'expired', hold: 'released' } });

      for (const days of [3, 30]) {
        const res = await sales(days);
        expect(res.status).toBe(200);
        const want = await expected(days);
        expect(res.body.days).toBe(days);
        expect(res.body.timeZone).toBe(ZONE);
        expect(res.body.revenueByDay).toEqual(
          want.dates.map((date) => ({ date, revenue: (want.byDay.get(date) ?? 0) / 100 })),
        );
        const totalCents = [...want.byDay.values()].reduce((a, b) => a + b, 0);
        expect(Math.round(res.body.revenue * 100)).toBe(totalCents);
        expect(res.body.ordersByStatus).toEqual({
          unpaid: 0,
          pending: 0,
          shipped: 0,
          delivered: 0,
          refunded: 0,
          disputed: 0,
          expired: 0,
          ...want.states,
        });
        const top = [...want.byPart.entries()]
          .filter(([, p]) => p.cents > 0)
          .sort(([, a], [, b]) => b.cents - a.cents)
          .map(([partId, p]) => ({ partId, qty: p.qty, revenue: p.cents / 100 }));
        expect(res.body.topParts.map(({ partId, qty, revenue }) => ({ partId, qty, revenue }))).toEqual(top);
      }

      // The figures this test knows by heart, so the sums above cannot agree by sharing a mistake.
      const three = (await sales(3)).body.revenueByDay;
      expect(three.map((d) => d.date)).toEqual(windowDates(3));
      const [twoAgo, yesterday, today] = three.map((d) => d.revenue);
      expect(twoAgo).toBe(620); // 200 chains at $3.10
      expect(yesterday).toBe(250 + 249); // 100 pads before midnight, 100 pads less $1.00 refunded
      expect(today).toBe(750 + 310); // 300 pads after midnight; the legacy order placed today; the refunded chain 0
      expect((await sales(30)).body.revenueByDay.filter((d) => d.revenue !== 0)).toHaveLength(4);
      // Room for the wait before the shop's midnight, on top of the usual minute.
    },
    7 * 60_000,
  );

  it('lists sold-out and running-low parts by the stock-alert rule, worst first', async () => {
    const res = await sales(30);
    const listed = res.body.lowStock.filter((p) => p.name.startsWith('Sales '));
    expect(listed).toEqual([
      { partId: soldOut, name: 'Sales sold-out mirror', availableQty: 40, minQty: 100, level: 'soldOut' },
      { partId: low, name: 'Sales low lever', availableQty: 250, minQty: 100, level: 'low' },
    ]);
    expect(res.body.lowStockCount).toBe(res.body.lowStock.length);
    // A restock above the line takes it off the list at once.
    expect(
      (await call(t.base, 'PUT', `/restockQty/${low}`, { token: admin.token, body: { quantity: 100 } }))
        .status,
    ).toBe(200);
    expect((await sales(30)).body.lowStock.map((p) => p.partId)).not.toContain(low);
  });

  it('holds exactly the pieces of the unpaid orders, and a release gives them back', async () => {
    const part = await insertPart({ name: 'Sales held hose', minOrderQty: 100, availableQty: 10_000 });
    const first = await place(part, 100);
    await place(part, 300, other);
    await place(part, 200);
    await paid(part, 100);

    const res = await sales(30);
    const all = await call<Order[]>(t.base, 'GET', '/orders?limit=100', { token: admin.token });
    const unpaidByPart = new Map<string, { pieces: number; ids: string[] }>();
    for (const o of all.body) {
      if (o.paid || o.status !== 'pending') continue;
      const entry = unpaidByPart.get(o.partsId) ?? { pieces: 0, ids: [] };
      entry.pieces += o.qty;
      entry.ids.push(o._id);
      unpaidByPart.set(o.partsId, entry);
    }
    expect(
      Object.fromEntries(
        res.body.held.map((h) => [
          h.partId,
          { pieces: h.pieces, ids: h.orders.map((o) => o.orderId).sort() },
        ]),
      ),
    ).toEqual(
      Object.fromEntries([...unpaidByPart].map(([id, e]) => [id, { pieces: e.pieces, ids: e.ids.sort() }])),
    );
    expect(res.body.heldCount).toBe(unpaidByPart.size);
    const hose = got(res.body.held.find((h) => h.partId === part));
    expect(hose).toMatchObject({ name: 'Sales held hose', pieces: 600, orderCount: 3 });
    // Every piece is on sale, held by an unpaid order or sold: the stock invariant, part by part.
    expect(got(await PartModel.findById(part).lean()).availableQty).toBe(10_000 - 600 - 100);

    // Release: the admin cancels one unpaid order (not theirs); its pieces go back at once.
    const release = await call(t.base, 'DELETE', `/order/${first._id}`, { token: admin.token });
    expect(release.status).toBe(200);
    expect(got(await PartModel.findById(part).lean()).availableQty).toBe(10_000 - 500 - 100);
    const after = got((await sales(30)).body.held.find((h) => h.partId === part));
    expect(after).toMatchObject({ pieces: 500, orderCount: 2 });
    expect(after.orders.map((o) => o.orderId)).not.toContain(first._id);
    // A paid order is not released this way.
    const paidOne = await paid(part, 100);
    const refused = await call<ApiError>(t.base, 'DELETE', `/order/${paidOne._id}`, { token: admin.token });
    expect(refused.status).toBe(409);
  });
});

describe('the Overview kept in memory', () => {
  it('lets its facts go when not asked for a while, and reads them again with the writes made meanwhile', async () => {
    const reads = new MemorySalesReads(200);
    const part = await insertPart({ name: 'Sales idle gasket', minOrderQty: 100, availableQty: 10_000 });
    const first = await place(part, 100);
    const from = Date.now() - DAY_MS;
    const to = Date.now() + DAY_MS;
    expect(reads.loaded).toBe(false); // nothing read before the first ask
    const before = await reads.window(from, to);
    expect(reads.loaded).toBe(true);
    expect(before.placed.map((f) => f.id)).toContain(first._id);
    expect(before.holding.map((f) => f.id)).toContain(first._id);

    expect(await eventually(async () => !reads.loaded, 100, 50)).toBe(true);
    // Written while let go: the next ask reads them.
    const second = await paid(part, 100);
    const after = await reads.window(from, to);
    expect(reads.loaded).toBe(true);
    expect(after.paid.map((f) => f.id)).toContain(second._id);
    expect(after.placed.map((f) => f.id)).toEqual(expect.arrayContaining([first._id, second._id]));
    expect(after.holding.map((f) => f.id)).not.toContain(second._id);
  });
});

describe('shop days', () => {
  it('follows a clock change: the spring-forward day in New York has 23 hours, every other 24', () => {
    const { dates, bounds } = shopDays(Date.UTC(2026, 2, 9, 17), 3, 'America/New_York');
    expect(dates).toEqual(['2026-03-07', '2026-03-08', '2026-03-09']);
    expect(bounds.map((b) => new Date(b).toISOString())).toEqual([
      '2026-03-07T05:00:00.000Z',
      '2026-03-08T05:00:00.000Z',
      '2026-03-09T04:00:00.000Z',
      '2026-03-10T04:00:00.000Z',
    ]);
  });

  it('starts a day whose midnight the clock skips at its first hour (Santiago, September)', () => {
    // Chile moves its clocks from 00:00 to 01:00 on the first Sunday of September.
    const { bounds } = shopDays(Date.UTC(2026, 8, 6, 15), 1, 'America/Santiago');
    expect(new Date(bounds[0] as number).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});
