import { ADMIN_CANNOT_ORDER, type Order, type Part } from '@motoparts/contracts';
import { OrderModel } from '../orders/model';
import { PartModel } from '../parts/model';
import { account, cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { postSucceededWebhook } from './support/stripe-proxy';

type Err = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

let t: TestApp;
let customer: Account;
let other: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  // These tests race many orders from one account on purpose; the order limit has its own tests.
  // One customer places many orders here; the per-customer cap has its own tests (order-rules).
  t = await startTestApp('orders', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_ORDER: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, other, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

const stockOf = async (id: string) => (await PartModel.findById(id).lean())?.availableQty;

describe('POST /order', () => {
  it('computes price and product name on the server, in cents, ignoring what the client sent', async () => {
    const partsId = await insertPart({ name: 'Clutch Cable', price: 19.99, availableQty: 1000 });
    const res = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: {
        partsId,
        qty: 101,
        price: 0.01,
        Parts: 'Free stuff',
        user: customer.email,
        userName: '  Cass C.  ',
        role: 'admin',
        paid: true,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      partsId,
      Parts: 'Clutch Cable',
      user: customer.email,
      userName: 'Cass C.',
      qty: 101,
      price: 2018.99,
      paid: false,
      status: 'pending',
    });
    expect(res.headers.get('location')).toBe(`/order/${res.body._id}`);
    expect(await stockOf(partsId)).toBe(899);
    const stored = await OrderModel.findById(res.body._id).lean();
    expect(stored?.priceCents).toBe(201899);
    expect(stored?.unitPriceCents).toBe(1999);
    expect(stored).not.toHaveProperty('role');
  });

  it('takes userName from the verified token when the body has none', async () => {
    const partsId = await insertPart();
    const res = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 100 },
    });
    expect(res.status).toBe(201);
    expect(res.body.userName).toBe('Cass Customer');
  });

  it('refuses an admin with the exact text of docs/product.md', async () => {
    const partsId = await insertPart();
    const res = await call<Err>(t.base, 'POST', '/order', {
      token: admin.token,
      body: { partsId, qty: 100 },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: 'FORBIDDEN', message: ADMIN_CANNOT_ORDER });
    expect(await stockOf(partsId)).toBe(1000);
  });

  it('400s a quantity below the part minimum, naming qty, and leaves stock alone', async () => {
    const partsId = await insertPart({ minOrderQty: 100, availableQty: 1000 });
    const res = await call<Err>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 99 },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('Minimum purchase quantity is 100');
    expect(res.body.error.details?.[0]?.path).toBe('qty');
    expect(await stockOf(partsId)).toBe(1000);
  });

  it('409s more than the stock and leaves it alone', async () => {
    const partsId = await insertPart({ availableQty: 150 });
    const res = await call<Err>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 151 },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(await stockOf(partsId)).toBe(150);
  });

  it('404s an unknown part and 400s a fractional quantity', async () => {
    const unknown = await call(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: '0123456789abcdef01234567', qty: 100 },
    });
    expect(unknown.status).toBe(404);
    const partsId = await insertPart();
    const frac = await call<Err>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 100.5 },
    });
    expect(frac.status).toBe(400);
    expect(frac.body.error.details?.map((d) => d.path)).toEqual(['qty']);
  });

  it("refuses ordering in someone else's name", async () => {
    const partsId = await insertPart();
    const res = await call(t.base, 'POST', '/order', {
      token: other.token,
      body: { partsId, qty: 100, user: customer.email },
    });
    expect(res.status).toBe(403);
    expect(await stockOf(partsId)).toBe(1000);
  });
});

describe('cancel', () => {
  it('restores the stock of a cancelled unpaid order, once', async () => {
    const partsId = await insertPart({ availableQty: 1000 });
    const order = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 300 },
    });
    expect(await stockOf(partsId)).toBe(700);
    const del = await call(t.base, 'DELETE', `/order/${order.body._id}`, { token: customer.token });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect(await stockOf(partsId)).toBe(1000);
    const again = await call(t.base, 'DELETE', `/order/${order.body._id}`, { token: customer.token });
    expect(again.status).toBe(404);
    expect(await stockOf(partsId)).toBe(1000);
  });

  it('refuses to cancel a paid order (409) and keeps the stock sold', async () => {
    const partsId = await insertPart({ availableQty: 1000 });
    const order = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 100 },
    });
    await OrderModel.updateOne({ _id: order.body._id }, { $set: { paid: true, transactionId: 'pi_paid' } });
    const del = await call<Err>(t.base, 'DELETE', `/order/${order.body._id}`, { token: customer.token });
    expect(del.status).toBe(409);
    expect(del.body.error.message).toBe(
      'A paid order cannot be cancelled; use Cancel and refund while it has not shipped.',
    );
    expect(await stockOf(partsId)).toBe(900);
  });
});

describe('reading orders and shipping status', () => {
  it("lists only the caller's orders, newest first, and all orders for admins", async () => {
    const partsId = await insertPart({ availableQty: 100000 });
    const mine = [];
    for (let i = 0; i < 3; i++) {
      mine.push(
        (await call<Order>(t.base, 'POST', '/order', { token: other.token, body: { partsId, qty: 100 + i } }))
          .body,
      );
    }
    const res = await call<Order[]>(t.base, 'GET', `/order?user=${encodeURIComponent(other.email)}`, {
      token: other.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.map((o) => o.qty)).toEqual([102, 101, 100]);
    expect(res.body.every((o) => o.user === other.email)).toBe(true);
    expect(res.headers.get('x-total-count')).toBe('3');
    const all = await call<Order[]>(t.base, 'GET', '/orders', { token: admin.token });
    expect(all.status).toBe(200);
    expect(Number(all.headers.get('x-total-count'))).toBe(await OrderModel.countDocuments({}));
    expect(all.body.some((o) => o.user === customer.email)).toBe(true);
  });

  it('lets an admin mark a paid order shipped (persisted) and rejects unknown statuses', async () => {
    const partsId = await insertPart();
    const order = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 100 },
    });
    expect(order.body.status).toBe('pending');
    // Only paid orders ship.
    const unpaid = await call<{ error: { message: string } }>(
      t.base,
      'PATCH',
      `/order/${order.body._id}/status`,
      {
        token: admin.token,
        body: { status: 'shipped' },
      },
    );
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.error.message).toBe('This order is not paid yet; only paid orders ship.');
    const paid = await postSucceededWebhook(
      t,
      order.body._id,
      Math.round(order.body.price * 100),
      'pi_orders_ship',
    );
    expect(paid.status).toBe(200);
    const res = await call<Order>(t.base, 'PATCH', `/order/${order.body._id}/status`, {
      token: admin.token,
      body: { status: 'shipped' },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('shipped');
    const seen = await call<Order>(t.base, 'GET', `/order/${order.body._id}`, { token: customer.token });
    expect(seen.body.status).toBe('shipped');
    const bad = await call(t.base, 'PATCH', `/order/${order.body._id}/status`, {
      token: admin.token,
      body: { status: 'lost' },
    });
    expect(bad.status).toBe(400);
  });
});

describe('concurrency', () => {
  it('50 customers ordering 100 each on stock 1000: exactly 10 succeed, 40 get 409, stock ends at 0', async () => {
    const partsId = await insertPart({ availableQty: 1000, minOrderQty: 100 });
    const buyers: Account[] = [];
    // Sign-ups in small batches: the emulator is shared with other work on this machine.
    for (let i = 0; i < 50; i += 10) {
      buyers.push(
        ...(await Promise.all(Array.from({ length: 10 }, () => account(t.base, uniqueEmail('buyer'))))),
      );
    }
    const results = await Promise.all(
      buyers.map((b) => call(t.base, 'POST', '/order', { token: b.token, body: { partsId, qty: 100 } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(40);
    expect(await stockOf(partsId)).toBe(0);
    expect(await OrderModel.countDocuments({ partId: partsId })).toBe(10);
  });

  it('concurrent restocks add up (no lost update), also while orders reserve stock', async () => {
    const partsId = await insertPart({ availableQty: 0 });
    const restocks = await Promise.all(
      Array.from({ length: 30 }, () =>
        call<Part>(t.base, 'PUT', `/restockQty/${partsId}`, { token: admin.token, body: { quantity: 100 } }),
      ),
    );
    expect(restocks.every((r) => r.status === 200)).toBe(true);
    expect(await stockOf(partsId)).toBe(3000);

    const mixed = await Promise.all([
      ...Array.from({ length: 10 }, () =>
        call(t.base, 'PUT', `/restockQty/${partsId}`, { token: admin.token, body: { quantity: 50 } }),
      ),
      ...Array.from({ length: 10 }, () =>
        call(t.base, 'POST', '/order', { token: customer.token, body: { partsId, qty: 100 } }),
      ),
    ]);
    expect(mixed.filter((r) => r.status === 200)).toHaveLength(10);
    expect(mixed.filter((r) => r.status === 201)).toHaveLength(10);
    expect(await stockOf(partsId)).toBe(3000 + 500 - 1000);
  });
});
