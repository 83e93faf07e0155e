import mongoose, { Types } from 'mongoose';
import type { Order } from '@motoparts/contracts';
import { OrderModel } from '../orders/model';
import { DatabaseOrderReads, MemoryOrderReads, type OrderReads } from '../orders/read-models';
import { placeOrder } from '../orders/placing';
import { orderRules } from '../orders/rules';
import { releaseOrder, takeStock } from '../orders/stock';
import { OrderTimeline, orderTimeline, ROW_BYTES } from '../orders/timeline';
import { UserModel } from '../users/model';
import type { Caller } from '../http/context';
import { account, uniqueEmail } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { got } from './support/faults';

// My Order on the embedded FerretDB takes each customer's order ids from the in-memory timeline and
// their rows from it or by `_id`, instead of a filter on `uid` that reads every order. It must
// answer exactly what the query answers: the same orders, order, pages and totals.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('customer_orders', { RATE_LIMIT_ORDER: '0/60', MAX_OPEN_ORDERS: '0' });
});
afterAll(() => t.close());

let memory: MemoryOrderReads | undefined;
/** The in-memory lists (on) or the database's queries (off): the two read models compared here. */
const withLists = (on: boolean): OrderReads =>
  on ? (memory ??= new MemoryOrderReads(orderRules(t.env))) : new DatabaseOrderReads(orderRules(t.env));

/** My Order's answer from a read model, as items and total. */
async function listOrdersOf(reads: OrderReads, uid: string, page: number, limit: number) {
  const entry = await reads.listOf(uid, page, limit);
  return { items: JSON.parse(entry.body.toString()) as Order[], total: entry.total };
}

/** An order written straight to the database, as a seed or an earlier version would have. */
async function insertOrder(uid: string, fields: Record<string, unknown> = {}): Promise<string> {
  const _id = new Types.ObjectId();
  await OrderModel.collection.insertOne({
    _id,
    partId: new Types.ObjectId(),
    uid,
    user: `${uid}@motoparts.test`,
    userName: uid,
    partName: `Part of ${uid}`,
    quantity: 100,
    unitPriceCents: 100,
    priceCents: 10_000,
    paid: false,
    status: 'pending',
    hold: 'held',
    createdAt: new Date(),
    updatedAt: new Date(),
    ...fields,
  } as never);
  return String(_id);
}

async function everyPage(uid: string, reads: OrderReads, limit: number) {
  const pages: { ids: string[]; total: number }[] = [];
  for (let page = 1; page <= 5; page++) {
    const { items, total } = await listOrdersOf(reads, uid, page, limit);
    pages.push({ ids: items.map((o: Order) => o._id), total });
  }
  return pages;
}

it('lists the same orders, newest first, with the same pages and totals as the uid query', async () => {
  const uid = `lists-${Date.now()}`;
  const base = Date.now() - 60_000;
  // Out of order on purpose, with ties on createdAt (then the newer _id first), hidden holds and
  // someone else's order: every rule of the query's filter and sort is exercised.
  for (const [i, at] of [5, 1, 3, 3, 9, 0, 7, 3, 2, 8].entries()) {
    await insertOrder(uid, { createdAt: new Date(base + at * 1000), partName: `Order ${i}` });
  }
  await insertOrder(uid, { hold: 'void' });
  await insertOrder(uid, { hold: 'reserving' });
  await insertOrder(uid, { hold: 'released', paid: false, status: 'expired' });
  await insertOrder(`${uid}-other`);

  const fromQuery = await everyPage(uid, withLists(false), 3);
  expect(fromQuery[0]?.total).toBe(11);
  // Inserted behind the API's back: the timeline's next read of the orders (hourly, or at a
  // restart) lists them.
  await orderTimeline().refresh();
  expect(await everyPage(uid, withLists(true), 3)).toEqual(fromQuery);
});

it('a customer’s orders whose rows are not kept are read by `_id`, and a change behind the API’s back settles there', async () => {
  const uid = `unkept-${Date.now()}`;
  const heir = `${uid}-heir`;
  const ids = [await insertOrder(uid), await insertOrder(uid), await insertOrder(uid)];
  // A timeline that keeps one row (the last one read: this order of someone else's).
  await insertOrder(`${uid}-last`);
  const timeline = new OrderTimeline({ maxBytes: ROW_BYTES });
  await timeline.refresh();
  const idsOf = async (who: string) => (await timeline.ordersOf(who)).map((row) => String(row._id));
  const fromQuery = async (who: string) =>
    (await listOrdersOf(withLists(false), who, 1, 20)).items.map((o) => o._id);
  expect(await idsOf(uid)).toEqual(await fromQuery(uid));
  expect(await idsOf(uid)).toHaveLength(3);
  const total = (await timeline.page(1, 1)).total;

  // Given to someone else, and hidden, by writes no hook saw.
  await OrderModel.collection.updateOne({ _id: new Types.ObjectId(ids[0]) }, { $set: { uid: heir } });
  await OrderModel.collection.updateOne({ _id: new Types.ObjectId(ids[1]) }, { $set: { hold: 'void' } });
  expect(await idsOf(uid)).toEqual(await fromQuery(uid));
  expect(await idsOf(uid)).toEqual([ids[2]]);
  // The first was filed under its owner, the second left the list.
  expect(await idsOf(heir)).toEqual([ids[0]]);
  expect((await timeline.page(1, 1)).total).toBe(total - 1);
});

it('an order placed through the service is listed at once; a cancelled one is not, nor a placement that died before its order', async () => {
  const buyer = await account(t.base, uniqueEmail('lists'), 'Lisa Lists');
  const user = got(await UserModel.findOne({ email: buyer.email }).lean());
  const caller: Caller = {
    uid: user._id,
    email: buyer.email,
    name: 'Lisa Lists',
    admin: false,
    verified: true,
  };
  const part = await insertPart({ availableQty: 1000 });

  const kept = await placeOrder(caller, { partId: part, quantity: 100 }, orderRules(t.env));
  const cancelled = await placeOrder(caller, { partId: part, quantity: 100 }, orderRules(t.env));
  expect(await releaseOrder(cancelled._id, 'cancelled')).toBe(true);
  // A placement that died after taking the stock, before writing its order: nothing to list.
  const died = new Types.ObjectId().toHexString();
  expect(await takeStock({ _id: died, partId: part, quantity: 100 })).not.toBeNull();

  const { items, total } = await listOrdersOf(withLists(true), caller.uid, 1, 20);
  const fromQuery = await listOrdersOf(withLists(false), caller.uid, 1, 20);
  expect({ items, total }).toEqual(fromQuery);
  expect(items.map((o) => o._id)).toEqual([kept._id]);

  // And over HTTP, with the API's own rules for this database.
  const res = await call<Order[]>(t.base, 'GET', `/order?user=${encodeURIComponent(buyer.email)}`, {
    token: buyer.token,
  });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(fromQuery.items);
  expect(res.headers.get('x-total-count')).toBe(String(fromQuery.total));
});

it('placing an order writes the part and the order only: no list of the customer’s orders to keep', async () => {
  const buyer = await account(t.base, uniqueEmail('writes'), 'Wanda Writes');
  const user = got(await UserModel.findOne({ email: buyer.email }).lean());
  const caller: Caller = {
    uid: user._id,
    email: buyer.email,
    name: 'Wanda Writes',
    admin: false,
    verified: true,
  };
  const part = await insertPart({ availableQty: 1000 });
  const commands: string[] = [];
  mongoose.set('debug', (collection: string, method: string) => commands.push(`${collection}.${method}`));
  let placed: Order;
  try {
    placed = await placeOrder(caller, { partId: part, quantity: 100 }, orderRules(t.env));
  } finally {
    mongoose.set('debug', false);
  }
  // The journal's clean-up runs on its own timer and may land in between.
  expect(commands.filter((c) => c !== 'parts.bulkWrite')).toEqual([
    'parts.findOneAndUpdate',
    'orders.insertOne',
  ]);
  expect((await listOrdersOf(withLists(true), caller.uid, 1, 20)).items.map((o) => o._id)).toEqual([
    placed._id,
  ]);
});

it('My Order over HTTP follows every change of the customer’s orders (pages kept per customer on the embedded database)', async () => {
  const buyer = await account(t.base, uniqueEmail('pages'), 'Paige Pages');
  const uid = got(await UserModel.findOne({ email: buyer.email }).lean())._id;
  const part = await insertPart({ availableQty: 100_000 });
  const path = `/order?user=${encodeURIComponent(buyer.email)}&limit=2`;
  /** Every page over HTTP equals the uid query's page, twice (the second from the cache, if any). */
  async function matchesQuery(): Promise<Order[]> {
    const all: Order[] = [];
    for (let page = 1; page <= 3; page++) {
      const expected = await listOrdersOf(withLists(false), uid, page, 2);
      for (let i = 0; i < 2; i++) {
        const res = await call<Order[]>(t.base, 'GET', `${path}&page=${page}`, { token: buyer.token });
        expect({ page, body: res.body, total: res.headers.get('x-total-count') }).toEqual({
          page,
          body: expected.items,
          total: String(expected.total),
        });
      }
      all.push(...expected.items);
    }
    return all;
  }
  const place = async () =>
    (
      await call<Order>(t.base, 'POST', '/order', {
        token: buyer.token,
        body: { partsId: part, qty: 100 },
      })
    ).body;

  expect(await matchesQuery()).toEqual([]);
  const first = await place();
  const second = await place();
  await place();
  expect((await matchesQuery()).map((o) => o._id)[1]).toBe(second._id);
  // Changed in place (shipped), cancelled (gone, the pages after it move up), a new one (first).
  await OrderModel.updateOne({ _id: first._id }, { $set: { status: 'shipped' } });
  expect((await matchesQuery()).find((o) => o._id === first._id)?.status).toBe('shipped');
  expect((await call(t.base, 'DELETE', `/order/${second._id}`, { token: buyer.token })).status).toBe(200);
  const newest = await place();
  const after = await matchesQuery();
  expect(after.map((o) => o._id)).not.toContain(second._id);
  expect(after[0]?._id).toBe(newest._id);
  // Another customer's order changes nothing here, and is not listed.
  const other = await account(t.base, uniqueEmail('pages-other'));
  await call(t.base, 'POST', '/order', { token: other.token, body: { partsId: part, qty: 100 } });
  expect(await matchesQuery()).toEqual(after);
});
