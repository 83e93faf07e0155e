import { Types } from 'mongoose';
import type { Part, Review } from '@motoparts/contracts';
import { PartModel } from '../parts/model';
import { seedDatabase, SEED_PARTS } from '../seed';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('health_parts');
  await seedDatabase();
});
afterAll(() => t.close());

describe('GET /health', () => {
  it('answers 200 {status:"ok"} with the database up', async () => {
    const res = await call(t.base, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{8,}$/);
  });

  it('echoes a sane incoming request id', async () => {
    const res = await call(t.base, 'GET', '/health', { headers: { 'x-request-id': 'abc-123' } });
    expect(res.headers.get('x-request-id')).toBe('abc-123');
  });
});

describe('GET /parts', () => {
  it('lists the seeded parts with prices in dollars and the total in X-Total-Count', async () => {
    const res = await call<Part[]>(t.base, 'GET', '/parts');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(SEED_PARTS.length));
    expect(res.body).toHaveLength(SEED_PARTS.length);
    const plug = res.body.find((p) => p.name === 'Iridium Spark Plug');
    expect(plug).toMatchObject({
      price: 12.5,
      qty: 100,
      availableQty: 3000,
      img: '/images/parts/iridium-spark-plug.svg',
    });
    expect(Object.keys(plug ?? {}).sort()).toEqual([
      '_id',
      'availableQty',
      'category',
      'img',
      'name',
      'price',
      'priceTiers',
      'qty',
      'text',
    ]);
  });

  it('pages with ?page and ?limit and links to the neighbours', async () => {
    const res = await call<Part[]>(t.base, 'GET', '/parts?limit=3&page=2&sort=name');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    const names = SEED_PARTS.map((p) => p.name).sort();
    expect(res.body.map((p) => p.name)).toEqual(names.slice(3, 6));
    const link = res.headers.get('link') ?? '';
    const last = Math.ceil(SEED_PARTS.length / 3);
    expect(link).toBe(
      [
        '</parts?limit=3&page=1&sort=name>; rel="first"',
        '</parts?limit=3&page=1&sort=name>; rel="prev"',
        '</parts?limit=3&page=3&sort=name>; rel="next"',
        `</parts?limit=3&page=${last}&sort=name>; rel="last"`,
      ].join(', '),
    );
  });

  it('links carry the parsed parameters by name, re-encoded, with page where it was absent', async () => {
    const res = await call<Part[]>(t.base, 'GET', '/parts?q=Brake%20pad&limit=1');
    const total = Number(res.headers.get('x-total-count'));
    const link = res.headers.get('link') ?? '';
    expect(link.split(', ')[0]).toBe('</parts?limit=1&page=1&q=Brake+pad>; rel="first"');
    if (total > 1) expect(link).toContain('</parts?limit=1&page=2&q=Brake+pad>; rel="next"');
    // The same query again (its parse is reused) answers the same; so does one with parameters
    // the route does not read, in another order: nothing of them reaches the header.
    const again = await call<Part[]>(t.base, 'GET', '/parts?q=Brake%20pad&limit=1');
    expect([again.body, again.headers.get('link')]).toEqual([res.body, link]);
    const junk = await call<Part[]>(t.base, 'GET', `/parts?utm=${'x'.repeat(3000)}&limit=1&q=Brake%20pad`);
    expect([junk.body, junk.headers.get('link')]).toEqual([res.body, link]);
  });

  it('caps ?limit at 100 (400 beyond)', async () => {
    expect((await call(t.base, 'GET', '/parts?limit=100')).status).toBe(200);
    const res = await call<{ error: { code: string } }>(t.base, 'GET', '/parts?limit=101');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });

  it('searches names case-insensitively and treats regex characters literally', async () => {
    const res = await call<Part[]>(t.base, 'GET', '/parts?q=IRIDIUM');
    expect(res.body.map((p) => p.name)).toEqual(['Iridium Spark Plug']);
    expect(res.headers.get('x-total-count')).toBe('1');
    const regex = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent('.*')}`);
    expect(regex.status).toBe(200);
    expect(regex.body).toEqual([]);
    const paren = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent('(Front')}`);
    expect(paren.body.map((p) => p.name)).toEqual(['Sintered Brake Pads (Front Pair)']);
  });

  it('matches every word of a search, in any order, in the name or the description', async () => {
    const words = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent('plug  iridium')}`);
    expect(words.body.map((p) => p.name)).toEqual(['Iridium Spark Plug']);
    // One word that matches nothing leaves nothing, even when the others match.
    const none = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent('iridium zzqx')}`);
    expect(none.body).toEqual([]);
    expect(none.headers.get('x-total-count')).toBe('0');
  });

  it('sorts by price both ways', async () => {
    const up = await call<Part[]>(t.base, 'GET', '/parts?sort=price');
    const prices = SEED_PARTS.map((p) => p.price).sort((a, b) => a - b);
    expect(up.body.map((p) => p.price)).toEqual(prices);
    const down = await call<Part[]>(t.base, 'GET', '/parts?sort=-price');
    expect(down.body.map((p) => p.price)).toEqual([...prices].reverse());
    expect((await call(t.base, 'GET', '/parts?sort=colour')).status).toBe(400);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await call(t.base, 'GET', '/parts');
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[\w-]+"$/);
    const again = await call(t.base, 'GET', '/parts', { headers: { 'if-none-match': tag ?? '' } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    const other = await call(t.base, 'GET', '/parts?limit=1', { headers: { 'if-none-match': tag ?? '' } });
    expect(other.status).toBe(200);
  });
});

describe('GET /parts filters: category, inStock, newest, name and description search', () => {
  type ErrorBody = { error: { code: string; message: string; details: { path: string }[] } };

  it('filters by category, with the total of the filtered list', async () => {
    const tools = await call<Part[]>(t.base, 'GET', '/parts?category=tools');
    expect(tools.status).toBe(200);
    const seededTools = SEED_PARTS.filter((p) => p.category === 'tools').map((p) => p.name);
    expect(seededTools.length).toBeGreaterThan(0);
    expect(tools.body.map((p) => p.name)).toEqual(expect.arrayContaining(seededTools));
    expect(tools.body.every((p) => p.category === 'tools')).toBe(true);
    expect(tools.headers.get('x-total-count')).toBe(String(tools.body.length));
    const gear = await call<Part[]>(t.base, 'GET', '/parts?category=gear&q=gloves');
    expect(gear.body.map((p) => p.name)).toEqual(['Leather Riding Gloves']);
  });

  it('filters by stock: inStock=true keeps parts whose minimum order is available, false the rest', async () => {
    const soldOut = await insertPart({ name: 'Filter test sold out', minOrderQty: 100, availableQty: 40 });
    const plenty = await insertPart({ name: 'Filter test plenty', minOrderQty: 100, availableQty: 100 });
    const inStock = await call<Part[]>(t.base, 'GET', '/parts?inStock=true&q=Filter%20test&limit=100');
    expect(inStock.body.map((p) => p._id)).toEqual([plenty]);
    const out = await call<Part[]>(t.base, 'GET', '/parts?inStock=false&q=Filter%20test');
    expect(out.body.map((p) => p._id)).toEqual([soldOut]);
    expect(out.headers.get('x-total-count')).toBe('1');
    const all = await call<Part[]>(t.base, 'GET', '/parts?inStock=true&limit=100');
    expect(all.body.every((p) => p.availableQty >= p.qty)).toBe(true);
  });

  it('sorts newest first', async () => {
    // Object ids order by their second, then by bytes that differ per process: an id a minute
    // ahead is the newest whatever else was added in this second.
    const ahead = Types.ObjectId.createFromTime(Math.floor(Date.now() / 1000) + 60).toHexString();
    const id = await insertPart({ name: 'Newest test part', id: ahead });
    const res = await call<Part[]>(t.base, 'GET', '/parts?sort=newest&limit=1');
    expect(res.body.map((p) => p._id)).toEqual([id]);
  });

  it('searches the description too', async () => {
    const res = await call<Part[]>(t.base, 'GET', '/parts?q=anti-drain-back');
    expect(res.body.map((p) => p.name)).toEqual(['Spin-On Oil Filter']);
  });

  it('combines q, category, inStock and sort', async () => {
    const res = await call<Part[]>(t.base, 'GET', '/parts?q=brake&category=parts&inStock=true&sort=-price');
    expect(res.status).toBe(200);
    const prices = res.body.map((p) => p.price);
    expect(prices.length).toBeGreaterThan(1);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('answers a page past the end with 200, an empty list and the real total', async () => {
    const res = await call<Part[]>(t.base, 'GET', '/parts?category=gear&page=500');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThan(0);
  });

  it.each([
    ['category=bikes', 'category'],
    ['category=', 'category'],
    ['category=Parts', 'category'],
    ['inStock=yes', 'inStock'],
    ['inStock=1', 'inStock'],
    ['inStock=', 'inStock'],
    ['sort=oldest', 'sort'],
    [`q=${'x'.repeat(101)}`, 'q'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['category=gear&category=tools', 'category'],
  ])('400s ?%s with the usual error shape naming %s', async (qs, field) => {
    const res = await call<ErrorBody>(t.base, 'GET', `/parts?${qs}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
    expect(res.body.error.message).toContain(field);
    expect(res.body.error.details.map((d) => d.path)).toContain(field);
  });

  it('creates a part in a category, and without one in the default category', async () => {
    // A part stored before categories existed (no field at all) reads as "parts". Written
    // behind Mongoose's back, so the create below (through the model) is what drops the cache.
    const none = await PartModel.collection.insertOne({
      name: 'Legacy uncategorised part',
      slug: 'legacy-uncategorised-part',
      text: 't',
      img: '/images/parts/test.svg',
      priceCents: 5000,
      minOrderQty: 1,
      availableQty: 1,
    });
    const tools = await PartModel.create({
      name: 'Category create test',
      slug: 'category-create-test',
      text: 't',
      img: '/images/parts/test.svg',
      priceCents: 5000,
      minOrderQty: 1,
      availableQty: 1,
      category: 'tools',
    });
    expect((await call<Part>(t.base, 'GET', `/parts/${String(tools._id)}`)).body.category).toBe('tools');
    const legacy = await call<Part>(t.base, 'GET', `/parts/${String(none.insertedId)}`);
    expect(legacy.body.category).toBe('parts');
    const inParts = await call<Part[]>(t.base, 'GET', '/parts?category=parts&q=Legacy%20uncategorised');
    expect(inParts.body.map((p) => p.name)).toEqual(['Legacy uncategorised part']);
  });
});

describe('GET /parts/:id', () => {
  it('returns one part, with an ETag and 304 on revalidation', async () => {
    const list = await call<Part[]>(t.base, 'GET', '/parts?sort=price&limit=1');
    const cheapest = list.body[0];
    expect(cheapest?.price).toBe(9.75);
    const res = await call<Part>(t.base, 'GET', `/parts/${cheapest?._id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(cheapest);
    const again = await call(t.base, 'GET', `/parts/${cheapest?._id}`, {
      headers: { 'if-none-match': res.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
  });

  it('404s an unknown id', async () => {
    const res = await call(t.base, 'GET', '/parts/0123456789abcdef01234567');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: 'Part not found.' } });
  });

  it.each(['not-an-id', '123', '0123456789abcdef0123456z', '%24gt', '0123456789abcdef012345670'])(
    '400s the malformed id %s (never 500)',
    async (id) => {
      const res = await call<{ error: { code: string; details: { path: string }[] } }>(
        t.base,
        'GET',
        `/parts/${id}`,
      );
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('BAD_REQUEST');
      expect(res.body.error.details[0]?.path).toBe('id');
    },
  );
});

describe('GET /review', () => {
  it('lists the seeded reviews, newest first', async () => {
    const res = await call<Review[]>(t.base, 'GET', '/review');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(3);
    expect(res.headers.get('x-total-count')).toBe('3');
    for (const r of res.body) {
      expect(r.rating).toBeGreaterThanOrEqual(1);
      expect(r.rating).toBeLessThanOrEqual(5);
      expect(r.img).toMatch(/^\/images\/reviewers\/\d\.svg$/);
    }
  });
});

describe('unknown routes and CORS', () => {
  it('404s an unknown route with the JSON error shape', async () => {
    const res = await call(t.base, 'GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No route for GET /nope.' } });
  });

  it('answers a preflight from a localhost origin and exposes the paging headers', async () => {
    const pre = await call(t.base, 'OPTIONS', '/order', {
      headers: {
        origin: 'http://localhost:3001',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://localhost:3001');
    expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization');
    const get = await call(t.base, 'GET', '/parts', { headers: { origin: 'http://localhost:3000' } });
    expect(get.headers.get('access-control-expose-headers')).toBe(
      'X-Total-Count, X-Facets, Link, ETag, X-Request-Id',
    );
    const evil = await call(t.base, 'GET', '/parts', { headers: { origin: 'https://evil.example' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    // A preflight from an origin that is not allowed: an empty 204 without CORS headers.
    const evilPre = await call(t.base, 'OPTIONS', '/order', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(evilPre.status).toBe(204);
    expect(evilPre.text).toBe('');
    expect(evilPre.headers.get('access-control-allow-origin')).toBeNull();
    expect(evilPre.headers.get('vary')).toContain('Origin');
  });
});
