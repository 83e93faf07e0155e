import type { Order } from '@motoparts/contracts';
import { PartModel } from '../parts/model';
import { ReviewModel } from '../reviews/model';
import { UserModel } from '../users/model';
import { cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startPayment, startTestApp, type TestApp } from './support/harness';

type Err = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

let t: TestApp;
let customer: Account;
let admin: Account;
let partId: string;
let orderId: string;
let intentId: string;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  t = await startTestApp('bad_input', { ADMIN_EMAILS: adminEmail });
  ({ customer, admin } = await cast(t.base, adminEmail));
  partId = await insertPart({ availableQty: 1_000_000 });
  const order = await call<Order>(t.base, 'POST', '/order', {
    token: customer.token,
    body: { partsId: partId, qty: 100 },
  });
  orderId = order.body._id;
  intentId = await startPayment(t.base, customer.token, orderId);
});
afterAll(() => t.close());

type Kind = 'string' | 'number' | 'array';
interface Endpoint {
  name: string;
  method: string;
  path: () => string;
  as: 'customer' | 'admin';
  valid: () => Record<string, unknown>;
  /** Every field the endpoint reads, with its JSON type; `required` ones must be named when missing. */
  fields: Record<string, { kind: Kind; required: boolean }>;
}

const req = (kind: Kind) => ({ kind, required: true });
const opt = (kind: Kind) => ({ kind, required: false });

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /parts',
    method: 'POST',
    path: () => '/parts',
    as: 'admin',
    valid: () => ({
      name: 'Fork Seal Kit',
      text: 'Two seals.',
      img: '/images/parts/x.svg',
      price: 19.5,
      qty: 100,
      availableQty: 1000,
    }),
    fields: {
      name: req('string'),
      text: req('string'),
      img: req('string'),
      price: req('number'),
      qty: req('number'),
      availableQty: req('number'),
      priceTiers: opt('array'),
    },
  },
  {
    name: 'PUT /parts/:id',
    method: 'PUT',
    path: () => `/parts/${partId}`,
    as: 'admin',
    valid: () => ({
      name: 'Edited Part',
      text: 'Edited text.',
      img: '/images/parts/x.svg',
      price: 19.5,
      qty: 100,
      priceTiers: [{ fromQty: 500, price: 18 }],
    }),
    fields: {
      name: req('string'),
      text: req('string'),
      img: req('string'),
      price: req('number'),
      qty: req('number'),
      category: opt('string'),
      priceTiers: opt('array'),
    },
  },
  {
    name: 'PUT /restockQty/:id',
    method: 'PUT',
    path: () => `/restockQty/${partId}`,
    as: 'admin',
    valid: () => ({ quantity: 5 }),
    fields: { quantity: req('number') },
  },
  {
    name: 'PUT /reduceQty/:id',
    method: 'PUT',
    path: () => `/reduceQty/${partId}`,
    as: 'admin',
    valid: () => ({ quantity: 5 }),
    fields: { quantity: req('number') },
  },
  {
    name: 'PUT /increaseQty/:id',
    method: 'PUT',
    path: () => `/increaseQty/${partId}`,
    as: 'admin',
    valid: () => ({ newQuantity: 100 }),
    fields: { newQuantity: req('number') },
  },
  {
    name: 'PUT /decreaseQty/:id',
    method: 'PUT',
    path: () => `/decreaseQty/${partId}`,
    as: 'admin',
    valid: () => ({ newQuantity: 100 }),
    fields: { newQuantity: req('number') },
  },
  {
    name: 'POST /order',
    method: 'POST',
    path: () => '/order',
    as: 'customer',
    valid: () => ({ partsId: partId, qty: 100 }),
    fields: { partsId: req('string'), qty: req('number'), userName: opt('string'), user: opt('string') },
  },
  {
    name: 'PATCH /order/:id',
    method: 'PATCH',
    path: () => `/order/${orderId}`,
    as: 'customer',
    valid: () => ({ transactionId: intentId }),
    fields: { transactionId: req('string') },
  },
  {
    name: 'PATCH /order/:id/status',
    method: 'PATCH',
    path: () => `/order/${orderId}/status`,
    as: 'admin',
    valid: () => ({ status: 'pending' }),
    fields: { status: req('string') },
  },
  {
    name: 'POST /create-payment-intent',
    method: 'POST',
    path: () => '/create-payment-intent',
    as: 'customer',
    valid: () => ({ orderId }),
    fields: { orderId: req('string') },
  },
  {
    name: 'POST /review',
    method: 'POST',
    path: () => '/review',
    as: 'customer',
    valid: () => ({ img: '/images/reviewers/2.svg', review: 'Fine.', rating: 3 }),
    fields: { img: req('string'), review: req('string'), rating: req('number'), email: opt('string') },
  },
  {
    name: 'PUT /userInfo/:email',
    method: 'PUT',
    path: () => `/userInfo/${customer.email}`,
    as: 'customer',
    valid: () => ({
      education: 'BSc',
      location: 'Oslo',
      phone: '+47 123',
      linkedin: 'https://linkedin.com/in/cass',
    }),
    fields: {
      education: opt('string'),
      location: opt('string'),
      phone: opt('string'),
      linkedin: opt('string'),
    },
  },
];

const tokenOf = (e: Endpoint) => (e.as === 'admin' ? admin.token : customer.token);
const send = (e: Endpoint, opts: Parameters<typeof call>[3]) =>
  call<Err>(t.base, e.method, e.path(), { token: tokenOf(e), ...opts });
const pathsOf = (res: { body: Err }) => (res.body.error.details ?? []).map((d) => d.path);

describe.each(ENDPOINTS)('$name', (e) => {
  it('accepts the valid body (so the failures below are about the input)', async () => {
    const res = await send(e, { body: e.valid() });
    expect(res.status).toBeLessThan(300);
  });

  it('400s malformed JSON', async () => {
    const res = await send(e, { raw: '{"a": ', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toMatch(/^The body is not valid JSON/);
  });

  it('415s a body that is not JSON', async () => {
    const res = await send(e, {
      raw: 'qty=100',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('413s a huge body', async () => {
    const res = await send(e, {
      raw: JSON.stringify({ ...e.valid(), pad: 'x'.repeat(200 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('400s a JSON array or string instead of an object', async () => {
    expect((await send(e, { body: [e.valid()] })).status).toBe(400);
    expect((await send(e, { body: 'hello' })).status).toBe(400);
  });

  const required = Object.entries(e.fields)
    .filter(([, f]) => f.required)
    .map(([k]) => k);
  if (required.length > 0) {
    it(`400s a missing body, naming ${required.join(', ')}`, async () => {
      const res = await send(e, {});
      expect(res.status).toBe(400);
      expect(pathsOf(res).sort()).toEqual([...required].sort());
      for (const field of required) expect(res.body.error.message).toContain(field);
    });
  }

  it.each(Object.entries(e.fields))('400s {"$gt": ""} in %s, naming it', async (field) => {
    const res = await send(e, { body: { ...e.valid(), [field]: { $gt: '' } } });
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual([field]);
  });

  it.each(Object.entries(e.fields))('400s a wrong type in %s, naming it', async (field, spec) => {
    const wrong = spec.kind === 'number' ? '100' : 100;
    const res = await send(e, { body: { ...e.valid(), [field]: wrong } });
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual([field]);
  });
});

describe('field rules', () => {
  const post = (path: string, body: unknown, token = admin.token) =>
    call<Err>(t.base, 'POST', path, { token, body });
  const part = {
    name: 'Fork Seal Kit',
    text: 'Two seals.',
    img: '/images/parts/x.svg',
    price: 19.5,
    qty: 100,
    availableQty: 1000,
  };
  it.each([
    ['price with three decimals', { price: 12.345 }, 'price'],
    ['negative price', { price: -1 }, 'price'],
    ['negative stock', { availableQty: -1 }, 'availableQty'],
    ['fractional minimum', { qty: 10.5 }, 'qty'],
    ['javascript: image', { img: 'javascript:alert(1)' }, 'img'],
    ['protocol-relative image', { img: '//evil.example/x.svg' }, 'img'],
    ['blank name', { name: '   ' }, 'name'],
  ])('POST /parts: 400s a %s', async (_label, patch, field) => {
    const res = await post('/parts', { ...part, ...patch });
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual([field]);
  });

  it.each([
    ['rating 6', { rating: 6 }, 'rating'],
    ['rating 0', { rating: 0 }, 'rating'],
    ['rating 4.5', { rating: 4.5 }, 'rating'],
    ['review of 1001 characters', { review: 'x'.repeat(1001) }, 'review'],
  ])('POST /review: 400s %s', async (_label, patch, field) => {
    const res = await post(
      '/review',
      { img: '/images/reviewers/1.svg', review: 'ok', rating: 5, ...patch },
      customer.token,
    );
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual([field]);
  });

  it('never stores unknown fields: parts', async () => {
    const res = await post('/parts', {
      ...part,
      name: 'Unknown Field Part',
      priceCents: 1,
      evil: 'x',
      _id: '0123456789abcdef01234567',
    });
    expect(res.status).toBe(201);
    const stored = await PartModel.findOne({ name: 'Unknown Field Part' }).lean();
    expect(stored?.priceCents).toBe(1950);
    expect(stored).not.toHaveProperty('evil');
    expect(String(stored?._id)).not.toBe('0123456789abcdef01234567');
  });

  it('never stores unknown fields: profile (no role or email change)', async () => {
    const res = await call(t.base, 'PUT', `/userInfo/${customer.email}`, {
      token: customer.token,
      body: { location: 'Bergen', role: 'admin', email: 'someone@else.example', evil: 1 },
    });
    expect(res.status).toBe(200);
    const stored = await UserModel.findOne({ email: customer.email }).lean();
    expect(stored).toMatchObject({ role: 'user', location: 'Bergen', education: 'BSc' });
    expect(stored).not.toHaveProperty('evil');
    expect(await UserModel.exists({ email: 'someone@else.example' })).toBeNull();
  });

  it('never stores unknown fields: reviews (email is always the caller)', async () => {
    const res = await post(
      '/review',
      { img: '/images/reviewers/1.svg', review: 'Unknown-field review', rating: 5, evil: 1 },
      customer.token,
    );
    expect(res.status).toBe(201);
    const stored = await ReviewModel.findOne({ review: 'Unknown-field review' }).lean();
    expect(stored?.email).toBe(customer.email);
    expect(stored).not.toHaveProperty('evil');
  });
});

describe('malformed path parameters and queries', () => {
  const badIds = [
    'abc',
    encodeURIComponent('{"$gt":""}'),
    'zzzzzzzzzzzzzzzzzzzzzzzz',
    '0123456789abcdef0123456',
  ];
  const idRoutes: [string, (id: string) => string, 'customer' | 'admin', unknown?][] = [
    ['GET', (id) => `/parts/${id}`, 'customer'],
    ['DELETE', (id) => `/parts/${id}`, 'admin'],
    ['PUT', (id) => `/parts/${id}`, 'admin', { name: 'x', text: 'x', img: '/x.svg', price: 1, qty: 1 }],
    ['PUT', (id) => `/restockQty/${id}`, 'admin', { quantity: 1 }],
    ['GET', (id) => `/order/${id}`, 'customer'],
    ['DELETE', (id) => `/order/${id}`, 'customer'],
    ['PATCH', (id) => `/order/${id}`, 'customer', { transactionId: 'pi_x' }],
    ['PATCH', (id) => `/order/${id}/status`, 'admin', { status: 'shipped' }],
  ];
  it.each(idRoutes.flatMap(([m, p, who, body]) => badIds.map((id) => [m, p(id), who, body] as const)))(
    '%s %s → 400',
    async (method, path, who, body) => {
      const res = await call<Err>(t.base, method, path, {
        token: who === 'admin' ? admin.token : customer.token,
        body,
      });
      expect(res.status).toBe(400);
      expect(pathsOf(res)).toEqual(['id']);
    },
  );

  it.each([
    ['GET', '/user/not-an-email'],
    ['GET', '/admin/not-an-email'],
    ['PUT', '/userInfo/%7B%22%24gt%22%3A%22%22%7D'],
  ])('%s %s → 400 naming email', async (method, path) => {
    const res = await call<Err>(t.base, method, path, {
      token: customer.token,
      body: method === 'PUT' ? {} : undefined,
    });
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual(['email']);
  });

  it.each([
    ['/order', 'user'],
    ['/order?user[$gt]=', 'user'],
    ['/order?user=a%40b.co&user=c%40d.co', 'user'],
    ['/order?user=not-an-email', 'user'],
  ])('GET %s → 400 naming %s', async (path, field) => {
    const res = await call<Err>(t.base, 'GET', path, { token: customer.token });
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual([field]);
  });

  it.each([
    ['/parts?page=0', 'page'],
    ['/parts?page=abc', 'page'],
    ['/parts?limit=-5', 'limit'],
    [`/parts?q=${'x'.repeat(101)}`, 'q'],
    ['/parts?q=a&q=b', 'q'],
    ['/parts?sort[$gt]=', undefined],
    // Page numbers are capped, so random deep pages cannot each make a new cache entry.
    ['/parts?page=100001', 'page'],
    ['/review?page=100001', 'page'],
    ['/review?limit=101', 'limit'],
    ['/parts?page=100000', undefined],
    ['/review?page=100000', undefined],
  ])('GET %s → 400 naming %s (or ignored)', async (path, field) => {
    const res = await call<Err>(t.base, 'GET', path);
    if (field === undefined) expect(res.status).toBe(200);
    else {
      expect(res.status).toBe(400);
      expect(pathsOf(res)).toEqual([field]);
    }
  });
});

describe('request-sized input', () => {
  it.each([
    ['GET', `/parts?q=${'x'.repeat(5000)}`],
    ['GET', `/parts?limit=5&junk=${'x'.repeat(4096)}`],
    ['GET', `/review?${'a=1&'.repeat(1100)}`],
    ['GET', `/parts/${'a'.repeat(5000)}`],
    ['PUT', `/user/${'a'.repeat(4100)}%40example.com`],
  ])('%s of a URL over 4 KB → 414 before any work', async (method, path) => {
    const res = await call<Err>(t.base, method, path, { token: customer.token });
    expect(res.status).toBe(414);
    expect(res.body.error).toEqual({
      code: 'URI_TOO_LONG',
      message: 'The URL is too long: at most 4096 characters.',
    });
  });

  it('an email pattern never runs on an over-long address: a 400 naming the field', async () => {
    // `a@` + `a.`×2000 + `@`: quadratic for a backtracking pattern; refused here on its length.
    const res = await call<Err>(t.base, 'GET', `/user/a%40${'a.'.repeat(2000)}%40`, {
      token: customer.token,
    });
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual(['email']);
  });
});

describe('control characters', () => {
  // NUL, BEL, ESC (a terminal colour sequence), DEL and a C1 control, inside otherwise valid text.
  const CONTROLS = ['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u009b'];
  const stringFields = ENDPOINTS.flatMap((e) =>
    Object.entries(e.fields)
      .filter(([, f]) => f.kind === 'string')
      .map(([field]) => [e.name, field, e] as const),
  );

  it.each(stringFields)('%s: 400 naming %s when it holds a control character', async (_name, field, e) => {
    for (const c of CONTROLS) {
      const valid = e.valid();
      const base = typeof valid[field] === 'string' ? (valid[field] as string) : 'text';
      const res = await send(e, { body: { ...valid, [field]: `${base.slice(0, 5)}${c}${base.slice(5)}` } });
      expect({ c: JSON.stringify(c), status: res.status }).toEqual({ c: JSON.stringify(c), status: 400 });
      expect(pathsOf(res)).toContain(field);
      expect(res.body.error.message).toContain(field);
    }
  });

  it('long texts keep line breaks and tabs; one-line fields refuse them', async () => {
    const review = await call<{ review: { review: string } }>(t.base, 'POST', '/review', {
      token: customer.token,
      body: { img: '/images/reviewers/1.svg', review: 'First line\n\tindented\r\nlast', rating: 4 },
    });
    expect(review.status).toBe(201);
    expect(review.body.review.review).toBe('First line\n\tindented\r\nlast');
    const profile = await call<Err>(t.base, 'PUT', `/userInfo/${customer.email}`, {
      token: customer.token,
      body: { location: 'Oslo\nBergen' },
    });
    expect(profile.status).toBe(400);
    expect(pathsOf(profile)).toEqual(['location']);
    const stored = await UserModel.findById(customer.email).lean();
    expect(stored).toBeNull(); // records are keyed by uid, never by email
    expect(await UserModel.exists({ location: 'Oslo\nBergen' })).toBeNull();
  });

  it('queries and path parameters refuse them too', async () => {
    const q = await call<Err>(t.base, 'GET', `/parts?q=${encodeURIComponent('brake\u0007')}`, {});
    expect(q.status).toBe(400);
    expect(pathsOf(q)).toEqual(['q']);
    const email = await call<Err>(t.base, 'GET', `/user/${encodeURIComponent('a\u0000b@c.de')}`, {
      token: customer.token,
    });
    expect(email.status).toBe(400);
  });
});
