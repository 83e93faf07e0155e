import { Types } from 'mongoose';
import type { Order } from '@motoparts/contracts';
import { CustomerOrdersModel, DataChangeModel, OrderModel } from '../orders/model';
import { listOrdersOf, noteCustomerOrders, orderRules, placeOrder, type OrderRules } from '../orders/service';
import { releaseOrder } from '../orders/stock';
import { UserModel } from '../users/model';
import type { Caller } from '../http/context';
import { account, uniqueEmail } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { got } from './support/faults';

// My Order on the embedded FerretDB reads each customer's list of order ids and then each order
// by `_id`, instead of a filter on `uid` that reads every order. It must answer exactly what the
// query answers: the same orders, order, pages and totals.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('customer_orders', { RATE_LIMIT_ORDER: '0/60', MAX_OPEN_ORDERS: '0' });
});
afterAll(() => t.close());

const withLists = (on: boolean): OrderRules => ({ ...orderRules(t.env), customerLists: on });

/** An order written straight to the database, as a seed or an earlier version would have. */
async function insertOrder(uid: string, fields: Record<string, unknown> = {}): Promise<string> {
  const _id = new Types.ObjectId();
  await OrderModel.collection.insertOne({
    _id,
    partsId: new Types.ObjectId(),
    uid,
    user: `${uid}@motoparts.test`,
    userName: uid,
    Parts: `Part of ${uid}`,
    qty: 100,
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

async function everyPage(uid: string, rules: OrderRules, limit: number) {
  const pages: { ids: string[]; total: number }[] = [];
  for (let page = 1; page <= 5; page++) {
    const { items, total } = await listOrdersOf(uid, page, limit, rules);
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
    await insertOrder(uid, { createdAt: new Date(base + at * 1000), Parts: `Order ${i}` });
  }
  await insertOrder(uid, { hold: 'void' });
  await insertOrder(uid, { hold: 'reserving' });
  await insertOrder(uid, { hold: 'released', paid: false, status: 'expired' });
  await insertOrder(`${uid}-other`);

  const fromQuery = await everyPage(uid, withLists(false), 3);
  expect(fromQuery[0]?.total).toBe(11);
  // Inserted behind the API's back: the once-per-database fill puts them in the list.
  await DataChangeModel.deleteMany({});
  expect(await everyPage(uid, withLists(true), 3)).toEqual(fromQuery);
  expect(await DataChangeModel.exists({ _id: 'customer-order-lists' })).toBeTruthy();
});

it('an order placed through the service is listed at once; a cancelled one is not, and an id without an order never is', async () => {
  const buyer = await account(t.base, uniqueEmail('lists'), 'Lisa Lists');
  const user = got(await UserModel.findOne({ email: buyer.email }).lean());
  const caller: Caller = { uid: user._id, email: buyer.email, name: 'Lisa Lists', admin: false };
  const part = await insertPart({ availableQty: 1000 });
  const rules = withLists(true);

  const kept = await placeOrder(caller, { partsId: part, qty: 100 }, rules);
  const cancelled = await placeOrder(caller, { partsId: part, qty: 100 }, rules);
  expect(await releaseOrder(cancelled._id, 'cancelled')).toBe(true);
  // A placement that died between listing its id and writing the order two days ago, and one an
  // hour ago that a retry with the same key could still complete: only the old one is pruned.
  // "Long ago" is beyond an Idempotency-Key's life, during which a retry may still use the id.
  const old = Types.ObjectId.createFromTime(Math.floor(Date.now() / 1000) - 2 * 86_400).toHexString();
  const retryable = Types.ObjectId.createFromTime(Math.floor(Date.now() / 1000) - 3600).toHexString();
  await noteCustomerOrders(caller.uid, [old, retryable]);

  const { items, total } = await listOrdersOf(caller.uid, 1, 20, rules);
  const fromQuery = await listOrdersOf(caller.uid, 1, 20, withLists(false));
  expect({ items, total }).toEqual(fromQuery);
  expect(items.map((o) => o._id)).toContain(kept._id);
  const list = got(await CustomerOrdersModel.findById(caller.uid).lean()).ids;
  expect(list).not.toContain(old);
  expect(list).toContain(retryable);

  // And over HTTP, with the API's own rules for this database.
  const res = await call<Order[]>(t.base, 'GET', `/order?user=${encodeURIComponent(buyer.email)}`, {
    token: buyer.token,
  });
  expect(res.status).toBe(200);
  expect(res.body).toEqual(fromQuery.items);
  expect(res.headers.get('x-total-count')).toBe(String(fromQuery.total));
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
      const expected = await listOrdersOf(uid, page, 2, withLists(false));
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
    (await call<Order>(t.base, 'POST', '/order', { token: buyer.token, body: { partsId: part, qty: 100 } }))
      .body;

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
