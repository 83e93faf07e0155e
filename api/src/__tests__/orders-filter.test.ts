import { parse } from 'csv-parse/sync';
import type { Order } from '@motoparts/contracts';
import { OrderModel } from '../orders/model';
import { cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';
import { postSucceededWebhook } from './support/stripe-proxy';

// Manage Order's filters (GET /orders?status=&paid=&q=) and its export (GET /export/orders.csv),
// on whichever read model the run uses (`npm test` runs the suite with each).

let t: TestApp;
let customer: Account;
let other: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');

interface Placed {
  id: string;
  who: 'customer' | 'other';
  paid: boolean;
  status: string;
}
const placed: Placed[] = [];

async function place(who: Account, userName?: string): Promise<string> {
  const res = await call<Order>(t.base, 'POST', '/order', {
    token: who.token,
    body: { partsId: partId, qty: 1, ...(userName ? { userName } : {}) },
  });
  if (res.status !== 201) throw new Error(`order failed: ${res.status} ${res.text}`);
  return res.body._id;
}
async function pay(id: string): Promise<void> {
  const priceCents = (await OrderModel.findById(id, { priceCents: 1 }).lean())?.priceCents ?? 0;
  const res = await postSucceededWebhook(t, id, priceCents, `pi_filter_${id}`);
  if (res.status !== 200) throw new Error(`payment failed: ${res.status}`);
}

let partId = '';
beforeAll(async () => {
  t = await startTestApp('orders_filter', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_ORDER: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, other, admin } = await cast(t.base, adminEmail));
  partId = await insertPart({ minOrderQty: 1, availableQty: 1000 });
  // customer: unpaid, paid, paid and shipped; other: unpaid (a name a spreadsheet would run), paid.
  const c1 = await place(customer);
  const c2 = await place(customer);
  const c3 = await place(customer);
  const o1 = await place(other, '=HYPERLINK("http://evil.example")');
  const o2 = await place(other);
  for (const id of [c2, c3, o2]) await pay(id);
  const ship = await call(t.base, 'PATCH', `/order/${c3}/status`, {
    token: admin.token,
    body: { status: 'shipped' },
  });
  if (ship.status !== 200) throw new Error(`ship failed: ${ship.status} ${ship.text}`);
  placed.push(
    { id: c1, who: 'customer', paid: false, status: 'pending' },
    { id: c2, who: 'customer', paid: true, status: 'pending' },
    { id: c3, who: 'customer', paid: true, status: 'shipped' },
    { id: o1, who: 'other', paid: false, status: 'pending' },
    { id: o2, who: 'other', paid: true, status: 'pending' },
  );
});
afterAll(() => t.close());

/** The ids GET /orders lists for a query, newest first, with its total. */
async function listed(query: string): Promise<{ ids: string[]; total: number; link: string | null }> {
  const res = await call<Order[]>(t.base, 'GET', `/orders?limit=100${query}`, { token: admin.token });
  expect(res.status).toBe(200);
  return {
    ids: res.body.map((o) => o._id),
    total: Number(res.headers.get('x-total-count')),
    link: res.headers.get('link'),
  };
}
/** The placed orders a predicate keeps, newest first (as the list orders them). */
const expected = (keep: (p: Placed) => boolean) =>
  placed
    .filter(keep)
    .map((p) => p.id)
    .reverse();

describe('GET /orders filters', () => {
  it('filters by paid, by status and by both, with the total of what they keep', async () => {
    const cases: [string, (p: Placed) => boolean][] = [
      ['', () => true],
      ['&paid=true', (p) => p.paid],
      ['&paid=false', (p) => !p.paid],
      ['&status=shipped', (p) => p.status === 'shipped'],
      ['&status=pending', (p) => p.status === 'pending'],
      ['&status=pending&paid=true', (p) => p.status === 'pending' && p.paid],
      ['&status=delivered', () => false],
    ];
    for (const [query, keep] of cases) {
      const want = expected(keep);
      expect({ query, ...(await listed(query)), link: undefined }).toEqual({
        query,
        ids: want,
        total: want.length,
        link: undefined,
      });
    }
  });

  it("searches by the customer's email (any case) or by order id, with the filters", async () => {
    const mine = await listed(`&q=${encodeURIComponent(customer.email.toUpperCase())}`);
    expect(mine.ids).toEqual(expected((p) => p.who === 'customer'));
    expect((await listed(`&q=${encodeURIComponent(customer.email)}&paid=true`)).ids).toEqual(
      expected((p) => p.who === 'customer' && p.paid),
    );
    const one = placed[3] as Placed;
    expect((await listed(`&q=${one.id}`)).ids).toEqual([one.id]);
    expect((await listed(`&q=${one.id}&paid=true`)).ids).toEqual([]);
    expect((await listed(`&q=${encodeURIComponent(uniqueEmail('nobody'))}`)).ids).toEqual([]);
  });

  it('pages through what the filters keep; the Link header keeps the filters', async () => {
    const want = expected((p) => p.paid);
    const res = await call<Order[]>(t.base, 'GET', '/orders?paid=true&page=2&limit=2', {
      token: admin.token,
    });
    expect(res.body.map((o) => o._id)).toEqual(want.slice(2, 4));
    expect(res.headers.get('x-total-count')).toBe(String(want.length));
    expect(res.headers.get('link')).toContain('</orders?limit=2&page=1&paid=true>; rel="first"');
  });

  it('refuses a bad status, paid or search (400), and customers (403)', async () => {
    for (const query of ['status=lost', 'paid=yes', 'q=not-an-email', `q=${'a'.repeat(300)}`]) {
      const res = await call(t.base, 'GET', `/orders?${query}`, { token: admin.token });
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
    expect((await call(t.base, 'GET', '/orders?paid=true', { token: customer.token })).status).toBe(403);
    expect((await call(t.base, 'GET', '/export/orders.csv', { token: customer.token })).status).toBe(403);
    expect((await call(t.base, 'GET', '/export/orders.csv')).status).toBe(401);
  });
});

describe('GET /export/orders.csv', () => {
  async function exported(query: string): Promise<{ text: string; rows: Record<string, string>[] }> {
    const res = await fetch(`${t.base}/export/orders.csv${query}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="orders.csv"');
    const text = await res.text();
    return { text, rows: parse(text, { columns: true }) as Record<string, string>[] };
  }

  it('streams the orders the same filters list, newest first, with their fields', async () => {
    for (const query of ['', '?paid=false', '?status=shipped', `?q=${encodeURIComponent(other.email)}`]) {
      const { rows } = await exported(query);
      const list = await call<Order[]>(t.base, 'GET', `/orders?limit=100${query.replace('?', '&')}`, {
        token: admin.token,
      });
      expect({ query, ids: rows.map((r) => r._id) }).toEqual({ query, ids: list.body.map((o) => o._id) });
    }
    const { rows } = await exported('?status=shipped');
    const shipped = placed[2] as Placed;
    const order = await call<Order>(t.base, 'GET', `/order/${shipped.id}`, { token: admin.token });
    expect(rows).toEqual([
      {
        _id: shipped.id,
        createdAt: order.body.createdAt,
        user: customer.email,
        userName: order.body.userName,
        partsId: partId,
        Parts: order.body.Parts,
        qty: '1',
        price: order.body.price.toFixed(2),
        paid: 'true',
        transactionId: order.body.transactionId,
        status: 'shipped',
        carrier: '',
        trackingNumber: '',
        refunded: '',
      },
    ]);
  });

  it("writes a cell a spreadsheet would run as a formula with a leading '", async () => {
    const { text, rows } = await exported('?paid=false');
    const row = rows.find((r) => r._id === placed[3]?.id);
    expect(row?.userName).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });
});
