import type { HostedImage, Order } from '@motoparts/contracts';
import sharp from 'sharp';
import { OrderModel } from '../orders/model';
import { UserModel } from '../users/model';
import { cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startPayment, startTestApp, type TestApp } from './support/harness';
import { postSucceededWebhook } from './support/stripe-proxy';

// Every endpoint × {anonymous, customer, another customer, admin}, with the exact status.
// "customer" owns the data the row acts on; "other" is a second, unrelated customer.

type Role = 'anon' | 'customer' | 'other' | 'admin';
const ROLES: Role[] = ['anon', 'customer', 'other', 'admin'];

interface Fixture {
  customer: Account;
  other: Account;
  admin: Account;
  partId: string;
  orderId: string;
  /** The PaymentIntent started for `orderId`. */
  intentId: string;
}

interface Row {
  name: string;
  method: string;
  path: (f: Fixture) => string | Promise<string>;
  body?: (f: Fixture) => unknown;
  /** 'firebase' sends the role's Firebase ID token instead of our API token (token exchange). */
  token?: 'api' | 'firebase';
  /** A body that is not JSON (a photo), with its content type. */
  raw?: () => Promise<{ raw: Buffer; headers: Record<string, string> }>;
  expect: Record<Role, number>;
}

const newOrder = async (f: Fixture) => {
  const res = await call<Order>(t.base, 'POST', '/order', {
    token: f.customer.token,
    body: { partsId: f.partId, qty: 100 },
  });
  if (res.status !== 201) throw new Error(`order setup failed: ${res.status}`);
  return res.body._id;
};
/** A paid order of the customer's (paid by Stripe's webhook). */
const paidOrder = async (f: Fixture) => {
  const id = await newOrder(f);
  const priceCents = (await OrderModel.findById(id, { priceCents: 1 }).lean())?.priceCents ?? 0;
  const res = await postSucceededWebhook(t, id, priceCents, `pi_authz_${id}`);
  if (res.status !== 200) throw new Error(`payment setup failed: ${res.status}`);
  return id;
};
/** A placed checkout of the customer's: one line of the fixture's part. */
const newCheckout = async (f: Fixture) => {
  await call(t.base, 'PUT', `/cart/lines/${f.partId}`, { token: f.customer.token, body: { qty: 100 } });
  const res = await call<{ checkoutId: string }>(t.base, 'POST', '/checkout', {
    token: f.customer.token,
    body: { address: '1 Matrix Road', phone: '+1 555 0100' },
  });
  if (res.status !== 201) throw new Error(`checkout setup failed: ${res.status} ${res.text}`);
  return res.body.checkoutId;
};
/** A small PNG, different each time. */
const photo = async () => ({
  raw: await sharp({
    create: {
      width: 32,
      height: 24,
      channels: 3,
      background: { r: Math.floor(Math.random() * 255), g: 80, b: 40 },
    },
  })
    .png()
    .toBuffer(),
  headers: { 'content-type': 'image/png' },
});
/** A photo hosted by the admin: its `/uploads/` path. */
const hostedPhoto = async (f: Fixture) => {
  const res = await call<HostedImage>(t.base, 'POST', '/images', {
    token: f.admin.token,
    ...(await photo()),
  });
  if (res.status !== 201) throw new Error(`upload setup failed: ${res.status} ${res.text}`);
  return res.body.url;
};
const newReview = async (f: Fixture) => {
  const res = await call<{ review: { _id: string } }>(t.base, 'POST', '/review', {
    token: f.customer.token,
    body: { img: '/images/reviewers/1.svg', review: 'To be moderated.', rating: 2 },
  });
  if (res.status !== 201) throw new Error(`review setup failed: ${res.status}`);
  return res.body.review._id;
};
const partBody = () => ({
  name: 'Matrix Part',
  text: 'Made for the matrix.',
  img: '/images/parts/x.svg',
  price: 5,
  qty: 100,
  availableQty: 1000,
});

/** A file for the import's row (a string body is sent as CSV). */
const IMPORT_CSV =
  'name,text,img,price,qty,availableQty,category\r\nMatrix CSV Part,From a file.,/images/parts/x.svg,5.00,1,10,parts\r\n';

const ROWS: Row[] = [
  {
    name: 'GET /parts',
    method: 'GET',
    path: () => '/parts',
    expect: { anon: 200, customer: 200, other: 200, admin: 200 },
  },
  {
    name: 'GET /parts/:id',
    method: 'GET',
    path: (f) => `/parts/${f.partId}`,
    expect: { anon: 200, customer: 200, other: 200, admin: 200 },
  },
  {
    name: 'POST /parts',
    method: 'POST',
    path: () => '/parts',
    body: partBody,
    expect: { anon: 401, customer: 403, other: 403, admin: 201 },
  },
  {
    name: 'PUT /parts/:id',
    method: 'PUT',
    path: (f) => `/parts/${f.partId}`,
    body: () => ({
      name: 'Matrix Part',
      text: 'Edited by the matrix.',
      img: '/images/parts/x.svg',
      price: 5,
      qty: 100,
    }),
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'DELETE /parts/:id',
    method: 'DELETE',
    path: async () => `/parts/${await insertPart()}`,
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'PUT /restockQty/:id',
    method: 'PUT',
    path: (f) => `/restockQty/${f.partId}`,
    body: () => ({ quantity: 10 }),
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'PUT /reduceQty/:id',
    method: 'PUT',
    path: (f) => `/reduceQty/${f.partId}`,
    body: () => ({ quantity: 1 }),
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'PUT /increaseQty/:id',
    method: 'PUT',
    path: (f) => `/increaseQty/${f.partId}`,
    body: () => ({ newQuantity: 100 }),
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'PUT /decreaseQty/:id',
    method: 'PUT',
    path: (f) => `/decreaseQty/${f.partId}`,
    body: () => ({ newQuantity: 100 }),
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'POST /order (for themselves)',
    method: 'POST',
    path: () => '/order',
    body: (f) => ({ partsId: f.partId, qty: 100 }),
    expect: { anon: 401, customer: 201, other: 201, admin: 403 },
  },
  {
    name: 'POST /order (user = customer)',
    method: 'POST',
    path: () => '/order',
    body: (f) => ({ partsId: f.partId, qty: 100, user: f.customer.email }),
    expect: { anon: 401, customer: 201, other: 403, admin: 403 },
  },
  {
    name: 'GET /orders',
    method: 'GET',
    path: () => '/orders',
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'GET /orders?status=&paid=&q=',
    method: 'GET',
    path: (f) => `/orders?status=pending&paid=false&q=${encodeURIComponent(f.customer.email)}`,
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'GET /export/orders.csv',
    method: 'GET',
    path: () => '/export/orders.csv?paid=false',
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'POST /import/parts',
    method: 'POST',
    path: () => '/import/parts?dryRun=true',
    body: () => IMPORT_CSV,
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'GET /export/parts.csv',
    method: 'GET',
    path: () => '/export/parts.csv',
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'GET /order?user=',
    method: 'GET',
    path: (f) => `/order?user=${encodeURIComponent(f.customer.email)}`,
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  {
    name: 'GET /order/:id',
    method: 'GET',
    path: (f) => `/order/${f.orderId}`,
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  {
    name: 'PATCH /order/:id',
    method: 'PATCH',
    path: (f) => `/order/${f.orderId}`,
    body: (f) => ({ transactionId: f.intentId }),
    expect: { anon: 401, customer: 200, other: 403, admin: 403 },
  },
  {
    name: 'DELETE /order/:id',
    method: 'DELETE',
    path: async (f) => `/order/${await newOrder(f)}`,
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  {
    name: 'PATCH /order/:id/status',
    method: 'PATCH',
    path: async (f) => `/order/${await paidOrder(f)}/status`,
    body: () => ({ status: 'shipped' }),
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'POST /order/:id/refund',
    method: 'POST',
    path: async (f) => `/order/${await paidOrder(f)}/refund`,
    body: () => ({}),
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  {
    name: 'POST /create-payment-intent',
    method: 'POST',
    path: () => '/create-payment-intent',
    body: (f) => ({ orderId: f.orderId }),
    expect: { anon: 401, customer: 200, other: 403, admin: 403 },
  },
  {
    name: 'GET /review',
    method: 'GET',
    path: () => '/review',
    expect: { anon: 200, customer: 200, other: 200, admin: 200 },
  },
  {
    name: 'POST /review',
    method: 'POST',
    path: () => '/review',
    body: () => ({ img: '/images/reviewers/1.svg', review: 'Solid parts.', rating: 5 }),
    expect: { anon: 401, customer: 201, other: 201, admin: 201 },
  },
  {
    name: 'POST /review (email = customer)',
    method: 'POST',
    path: () => '/review',
    body: (f) => ({ email: f.customer.email, img: '/images/reviewers/1.svg', review: 'Solid.', rating: 4 }),
    expect: { anon: 401, customer: 201, other: 403, admin: 403 },
  },
  {
    name: 'PUT /user/:email (token exchange)',
    method: 'PUT',
    path: (f) => `/user/${f.customer.email}`,
    token: 'firebase',
    body: (f) => ({ email: f.customer.email }),
    expect: { anon: 401, customer: 200, other: 403, admin: 403 },
  },
  {
    name: 'GET /user/:email',
    method: 'GET',
    path: (f) => `/user/${f.customer.email}`,
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  {
    name: 'PUT /userInfo/:email',
    method: 'PUT',
    path: (f) => `/userInfo/${f.customer.email}`,
    body: () => ({ location: 'Oslo' }),
    expect: { anon: 401, customer: 200, other: 403, admin: 403 },
  },
  {
    name: 'GET /user',
    method: 'GET',
    path: () => '/user',
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'PUT /user/admin/:email',
    method: 'PUT',
    path: async () => {
      const email = uniqueEmail('promotable');
      await UserModel.create({ _id: `uid-${email}`, email, role: 'user' });
      return `/user/admin/${email}`;
    },
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'DELETE /user/admin/:email',
    method: 'DELETE',
    path: async () => {
      const email = uniqueEmail('demotable');
      await UserModel.create({ _id: `uid-${email}`, email, role: 'admin' });
      return `/user/admin/${email}`;
    },
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  ...(['PUT', 'DELETE'] as const).map((method) => ({
    name: `${method} /user/disabled/:email`,
    method,
    path: async () => {
      const email = uniqueEmail('disable');
      await UserModel.create({ _id: `uid-${email}`, email, role: 'user' });
      return `/user/disabled/${email}`;
    },
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  })),
  {
    name: 'DELETE /session/:email',
    method: 'DELETE',
    path: async () => {
      const email = uniqueEmail('ended');
      await UserModel.create({ _id: `uid-${email}`, email, role: 'user' });
      return `/session/${email}`;
    },
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'DELETE /review/:id',
    method: 'DELETE',
    path: async (f) => `/review/${await newReview(f)}`,
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'GET /admin/:email',
    method: 'GET',
    path: (f) => `/admin/${f.customer.email}`,
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  // Each customer has a cart of their own; an admin has none (the spec's alert).
  {
    name: 'GET /cart',
    method: 'GET',
    path: () => '/cart',
    expect: { anon: 401, customer: 200, other: 200, admin: 403 },
  },
  {
    name: 'PUT /cart/lines/:partId',
    method: 'PUT',
    path: (f) => `/cart/lines/${f.partId}`,
    body: () => ({ qty: 100 }),
    expect: { anon: 401, customer: 200, other: 200, admin: 403 },
  },
  {
    name: 'GET /checkout/:id',
    method: 'GET',
    path: async (f) => `/checkout/${await newCheckout(f)}`,
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  {
    name: 'DELETE /checkout/:id',
    method: 'DELETE',
    path: async (f) => `/checkout/${await newCheckout(f)}`,
    expect: { anon: 401, customer: 200, other: 403, admin: 200 },
  },
  {
    name: 'GET /sales',
    method: 'GET',
    path: () => '/sales?days=30',
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
  {
    name: 'POST /checkout/:id/order-again',
    method: 'POST',
    path: async (f) => `/checkout/${await newCheckout(f)}/order-again`,
    expect: { anon: 401, customer: 200, other: 403, admin: 403 },
  },
  {
    name: 'POST /images',
    method: 'POST',
    path: () => '/images',
    raw: photo,
    expect: { anon: 401, customer: 201, other: 201, admin: 201 },
  },
  {
    name: 'GET /uploads/:file',
    method: 'GET',
    path: hostedPhoto,
    expect: { anon: 200, customer: 200, other: 200, admin: 200 },
  },
  {
    name: 'GET /site/parts/:id/head',
    method: 'GET',
    path: (f) => `/site/parts/${f.partId}/head`,
    expect: { anon: 200, customer: 200, other: 200, admin: 200 },
  },
  {
    name: 'GET /site/sitemap.xml',
    method: 'GET',
    path: () => '/site/sitemap.xml',
    expect: { anon: 200, customer: 200, other: 200, admin: 200 },
  },
  {
    name: 'GET /site/sitemaps/:file',
    method: 'GET',
    // One file only: the catalogue here is far below a sitemap index.
    path: () => '/site/sitemaps/1.xml',
    expect: { anon: 404, customer: 404, other: 404, admin: 404 },
  },
  {
    name: 'GET /site/robots.txt',
    method: 'GET',
    path: () => '/site/robots.txt',
    expect: { anon: 200, customer: 200, other: 200, admin: 200 },
  },
  {
    name: 'POST /client-errors',
    method: 'POST',
    path: () => '/client-errors',
    body: () => ({ remote: 'dashboard', version: '2.2.0', url: 'https://shop.example/admin', message: 'x' }),
    expect: { anon: 201, customer: 201, other: 201, admin: 201 },
  },
  {
    name: 'GET /client-errors',
    method: 'GET',
    path: () => '/client-errors',
    expect: { anon: 401, customer: 403, other: 403, admin: 200 },
  },
];

let t: TestApp;
let f: Fixture;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  // The matrix posts more reviews, orders, checkouts and refunds from one account than their
  // budgets (rate-limits.test.ts).
  // One customer places many orders here; the per-customer cap has its own tests (order-rules).
  t = await startTestApp('authz', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_REVIEW: '0/60',
    RATE_LIMIT_CHECKOUT: '0/60',
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_STRIPE: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  const people = await cast(t.base, adminEmail);
  const partId = await insertPart({ availableQty: 1_000_000 });
  f = { ...people, partId, orderId: '', intentId: '' };
  f.orderId = await newOrder(f);
  f.intentId = await startPayment(t.base, f.customer.token, f.orderId);
});
afterAll(() => t.close());

const cases = ROWS.flatMap((row) => ROLES.map((role) => [row.name, role, row.expect[role], row] as const));

it.each(cases)('%s as %s → %i', async (_name, role, expected, row) => {
  const path = await row.path(f);
  const who = role === 'anon' ? undefined : f[role];
  const token = who ? (row.token === 'firebase' ? who.idToken : who.token) : undefined;
  const body = row.body?.(f);
  const res = await call(t.base, row.method, path, {
    token,
    ...(typeof body === 'string' ? { raw: body, headers: { 'content-type': 'text/csv' } } : { body }),
    ...(row.raw ? await row.raw() : {}),
  });
  expect({ status: res.status, body: res.status === expected ? 'ok' : res.body }).toEqual({
    status: expected,
    body: 'ok',
  });
});

describe('tokens', () => {
  it('401s a garbage, a foreign-signed and a Firebase ID token where our API token is expected', async () => {
    const path = `/order?user=${encodeURIComponent(f.customer.email)}`;
    for (const token of ['garbage', f.customer.token.slice(0, -4) + 'AAAA', f.customer.idToken]) {
      const res = await call<{ error: { code: string } }>(t.base, 'GET', path, { token });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('401s our API token where the token exchange expects a Firebase ID token', async () => {
    const res = await call(t.base, 'PUT', `/user/${f.customer.email}`, { token: f.customer.token });
    expect(res.status).toBe(401);
  });

  it('issues a token carrying uid, email, admin and a 15-minute exp, and the admin flag from the database', async () => {
    const res = await call<{ token: string; admin: boolean }>(t.base, 'PUT', `/user/${f.admin.email}`, {
      token: f.admin.idToken,
      body: { role: 'user' },
    });
    expect(res.status).toBe(200);
    expect(res.body.admin).toBe(true);
    const claims = JSON.parse(
      Buffer.from(res.body.token.split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>;
    expect(claims).toMatchObject({ email: f.admin.email, admin: true });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(900);
    expect(typeof claims.sub).toBe('string');
    expect(claims.sub).not.toBe(f.admin.email);
    const customer = await call<{ admin: boolean }>(t.base, 'PUT', `/user/${f.customer.email}`, {
      token: f.customer.idToken,
      body: { role: 'admin' },
    });
    expect(customer.body.admin).toBe(false);
    expect((await UserModel.findOne({ email: f.customer.email }).lean())?.role).toBe('user');
  });

  it('make-admin takes effect at once and answers modifiedCount (0 when already admin)', async () => {
    const email = uniqueEmail('promoted');
    await UserModel.create({ _id: `uid-${email}`, email });
    const first = await call(t.base, 'PUT', `/user/admin/${email}`, { token: f.admin.token });
    expect(first.body).toEqual({ modifiedCount: 1 });
    const again = await call(t.base, 'PUT', `/user/admin/${email}`, { token: f.admin.token });
    expect(again.body).toEqual({ modifiedCount: 0 });
    const lookup = await call(t.base, 'GET', `/admin/${email}`, { token: f.admin.token });
    expect(lookup.body).toEqual({ admin: true });
    const unknown = await call(t.base, 'PUT', `/user/admin/${uniqueEmail('ghost')}`, {
      token: f.admin.token,
    });
    expect(unknown.status).toBe(404);
  });
});
