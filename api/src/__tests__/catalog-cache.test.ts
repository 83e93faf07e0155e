import type { Order, Part, Review } from '@motoparts/contracts';
import { partListQuerySchema } from '@motoparts/contracts';
import { build, CatalogCache, entryBytes, type Loaded } from '../lib/catalog-cache';
import { PartCatalogue } from '../parts/catalogue';
import { catalogWriteScope, PartModel } from '../parts/model';
import { listParts } from '../parts/service';
import { seedDatabase } from '../seed';
import { cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type Res, type TestApp } from './support/harness';

let t: TestApp;
let customer: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  // Unlimited TTL, as in embedded mode: only invalidation can make a read fresh.
  t = await startTestApp('catalog_cache', { ADMIN_EMAILS: adminEmail, CATALOG_CACHE_TTL_MS: 'unlimited' });
  await seedDatabase();
  ({ customer, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

const getPart = (id: string) => call<Part>(t.base, 'GET', `/parts/${id}`);
const listed = async (id: string, path = '/parts?limit=100') => {
  const res = await call<Part[]>(t.base, 'GET', path);
  return res.body.find((p) => p._id === id);
};
const headersOf = (res: Res) => {
  const h: Record<string, string> = {};
  res.headers.forEach((v, k) => {
    if (k !== 'date' && k !== 'x-request-id') h[k] = v;
  });
  return h;
};

const qtyIn = (entry: { body: Buffer }) => (JSON.parse(entry.body.toString()) as Part).availableQty;

describe('catalogue cache', () => {
  it('serves repeat reads from memory with the same body and headers (a write behind its back is not seen)', async () => {
    const id = await insertPart({ availableQty: 1000 });
    const first = await call<Part[]>(t.base, 'GET', '/parts?limit=100&sort=name');
    const one = await getPart(id);
    expect(one.body.availableQty).toBe(1000);
    // Bypass Mongoose (and so the invalidation hooks): the cached answers must not change.
    await PartModel.collection.updateOne(
      { _id: new PartModel.base.Types.ObjectId(id) },
      { $set: { availableQty: 1 } },
    );
    const again = await call<Part[]>(t.base, 'GET', '/parts?limit=100&sort=name');
    expect(again.text).toBe(first.text);
    expect(headersOf(again)).toEqual(headersOf(first));
    expect(headersOf(again)).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-cache',
      'x-total-count': expect.stringMatching(/^\d+$/),
      link: expect.stringContaining('rel="first"'),
      etag: expect.stringMatching(/^"[\w-]+"$/),
    });
    expect((await getPart(id)).body.availableQty).toBe(1000);
    // A write through the API invalidates: the next read goes to the database again.
    const restocked = await call<Part>(t.base, 'PUT', `/restockQty/${id}`, {
      token: admin.token,
      body: { quantity: 5 },
    });
    expect(restocked.body.availableQty).toBe(6);
    expect((await getPart(id)).body.availableQty).toBe(6);
    expect((await listed(id, '/parts?limit=100&sort=name'))?.availableQty).toBe(6);
  });

  it('shows the stock an order took and a cancellation gave back', async () => {
    const id = await insertPart({ availableQty: 1000 });
    expect((await getPart(id)).body.availableQty).toBe(1000);
    expect((await listed(id))?.availableQty).toBe(1000);
    const order = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: id, qty: 150 },
    });
    expect(order.status).toBe(201);
    expect((await getPart(id)).body.availableQty).toBe(850);
    expect((await listed(id))?.availableQty).toBe(850);
    const del = await call(t.base, 'DELETE', `/order/${order.body._id}`, { token: customer.token });
    expect(del.status).toBe(200);
    expect((await getPart(id)).body.availableQty).toBe(1000);
    expect((await listed(id))?.availableQty).toBe(1000);
  });

  it('shows restock, write-off and minimum-quantity changes', async () => {
    const id = await insertPart({ availableQty: 1000, minOrderQty: 100 });
    expect((await getPart(id)).body).toMatchObject({ availableQty: 1000, qty: 100 });
    expect((await listed(id))?.availableQty).toBe(1000);
    const put = (path: string, body: unknown) =>
      call(t.base, 'PUT', `${path}/${id}`, { token: admin.token, body });
    expect((await put('/restockQty', { quantity: 500 })).status).toBe(200);
    expect((await getPart(id)).body.availableQty).toBe(1500);
    expect((await listed(id))?.availableQty).toBe(1500);
    expect((await put('/reduceQty', { quantity: 200 })).status).toBe(200);
    expect((await getPart(id)).body.availableQty).toBe(1300);
    expect((await put('/increaseQty', { newQuantity: 120 })).status).toBe(200);
    expect((await getPart(id)).body.qty).toBe(120);
    expect((await listed(id))?.qty).toBe(120);
    expect((await put('/decreaseQty', { newQuantity: 50 })).status).toBe(200);
    expect((await getPart(id)).body.qty).toBe(50);
    expect((await listed(id))?.qty).toBe(50);
  });

  it('moves a part into and out of the stock-filtered lists when its stock changes', async () => {
    const name = `Stock filter ${Math.random().toString(36).slice(2, 8)}`;
    const id = await insertPart({ name, availableQty: 50, minOrderQty: 100 });
    const ids = async (inStock: boolean) => {
      const res = await call<Part[]>(
        t.base,
        'GET',
        `/parts?inStock=${inStock}&q=${encodeURIComponent(name)}`,
      );
      return { ids: res.body.map((p) => p._id), total: res.headers.get('x-total-count') };
    };
    // Cached while the part is sold out…
    expect(await ids(true)).toEqual({ ids: [], total: '0' });
    expect(await ids(false)).toEqual({ ids: [id], total: '1' });
    const restocked = await call(t.base, 'PUT', `/restockQty/${id}`, {
      token: admin.token,
      body: { quantity: 50 },
    });
    expect(restocked.status).toBe(200);
    // …and the in-place stock change moves it, though the cached in-stock list never held it.
    expect(await ids(true)).toEqual({ ids: [id], total: '1' });
    expect(await ids(false)).toEqual({ ids: [], total: '0' });
    const order = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: id, qty: 100 },
    });
    expect(order.status).toBe(201);
    expect(await ids(true)).toEqual({ ids: [], total: '0' });
    expect(await ids(false)).toEqual({ ids: [id], total: '1' });
  });

  it('grows and shrinks the list total when parts are created and deleted', async () => {
    const before = await call<Part[]>(t.base, 'GET', '/parts?limit=5');
    const total = Number(before.headers.get('x-total-count'));
    const search = await call<Part[]>(t.base, 'GET', '/parts?q=Titanium%20Exhaust');
    expect(search.body).toEqual([]);
    const created = await call<{ part: Part }>(t.base, 'POST', '/parts', {
      token: admin.token,
      body: {
        name: 'Titanium Exhaust Can',
        text: 'Light and loud.',
        img: '/images/parts/x.svg',
        price: 420,
        qty: 1,
        availableQty: 5,
      },
    });
    expect(created.status).toBe(201);
    const after = await call<Part[]>(t.base, 'GET', '/parts?limit=5');
    expect(after.headers.get('x-total-count')).toBe(String(total + 1));
    const found = await call<Part[]>(t.base, 'GET', '/parts?q=Titanium%20Exhaust');
    expect(found.body.map((p) => p.name)).toEqual(['Titanium Exhaust Can']);
    const id = created.body.part._id;
    expect((await getPart(id)).status).toBe(200);
    expect((await call(t.base, 'DELETE', `/parts/${id}`, { token: admin.token })).status).toBe(200);
    expect((await getPart(id)).status).toBe(404);
    const gone = await call<Part[]>(t.base, 'GET', '/parts?limit=5');
    expect(gone.headers.get('x-total-count')).toBe(String(total));
  });

  it('invalidates on writes outside the services too (the seed, scripts on the same connection)', async () => {
    const plug = (await call<Part[]>(t.base, 'GET', '/parts?q=Iridium')).body[0];
    expect(plug).toBeDefined();
    await PartModel.updateOne({ slug: 'iridium-spark-plug' }, { $inc: { availableQty: -7 } });
    const now = (await call<Part[]>(t.base, 'GET', '/parts?q=Iridium')).body[0];
    expect(now?.availableQty).toBe((plug?.availableQty ?? 0) - 7);
  });

  it('keeps 304 revalidation, and a changed part gets a new ETag', async () => {
    const id = await insertPart({ availableQty: 1000 });
    const first = await getPart(id);
    const tag = first.headers.get('etag') ?? '';
    expect(tag).toMatch(/^"[\w-]+"$/);
    const cached = await call(t.base, 'GET', `/parts/${id}`, { headers: { 'if-none-match': tag } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(cached.headers.get('etag')).toBe(tag);
    const listTag = (await call(t.base, 'GET', '/parts?limit=100')).headers.get('etag') ?? '';
    expect(
      (await call(t.base, 'GET', '/parts?limit=100', { headers: { 'if-none-match': listTag } })).status,
    ).toBe(304);
    await call(t.base, 'PUT', `/restockQty/${id}`, { token: admin.token, body: { quantity: 1 } });
    const changed = await call<Part>(t.base, 'GET', `/parts/${id}`, { headers: { 'if-none-match': tag } });
    expect(changed.status).toBe(200);
    expect(changed.body.availableQty).toBe(1001);
    expect(changed.headers.get('etag')).not.toBe(tag);
    const list = await call(t.base, 'GET', '/parts?limit=100', { headers: { 'if-none-match': listTag } });
    expect(list.status).toBe(200);
  });

  it('shows a new review in GET /review', async () => {
    const before = await call<Review[]>(t.base, 'GET', '/review');
    const n = Number(before.headers.get('x-total-count'));
    const posted = await call(t.base, 'POST', '/review', {
      token: customer.token,
      body: { img: '/images/reviewers/1.svg', review: 'Cache me if you can.', rating: 5 },
    });
    expect(posted.status).toBe(201);
    const after = await call<Review[]>(t.base, 'GET', '/review');
    expect(after.headers.get('x-total-count')).toBe(String(n + 1));
    expect(after.body[0]?.review).toBe('Cache me if you can.');
  });
});

describe('in-memory catalogue', () => {
  // Searches are the index's (typos, joined words, relevance), which no database query does: search.test.ts.
  it('answers every page, sort, filter and facet count exactly as the database query does', async () => {
    const names = [
      'alpha',
      'Alpha',
      'ÄLPHA',
      'älpha',
      'Émile',
      'émile',
      'Zeta',
      '\u{1D518}nicode',
      '\uFF21wide',
      'a.b*c',
      'Same',
      'Same',
    ];
    const categories = ['parts', 'tools', 'gear'] as const;
    for (const [i, name] of names.entries()) {
      await insertPart({
        name,
        price: [5, 5, 1, 99.99][i % 4],
        category: categories[i % 3],
        availableQty: [0, 99, 100, 5000][i % 4],
        text: i % 5 === 0 ? 'Described as alpha grade' : 'A part used by the tests.',
      });
    }
    const queries = [
      {},
      { sort: 'name' },
      { sort: '-name' },
      { sort: 'price' },
      { sort: '-price', limit: '5', page: '2' },
      { limit: '7', page: '3', sort: 'name' },
      { page: '999' },
      { sort: 'newest' },
      { sort: 'newest', limit: '4', page: '2' },
      { category: 'tools' },
      { category: 'parts', sort: 'name' },
      { inStock: 'true' },
      { inStock: 'false', sort: 'price' },
      { price: 'under-25' },
      { price: '25-100', sort: 'price', inStock: 'true' },
      { facets: 'true' },
      { facets: 'true', category: 'tools', sort: 'name', limit: '3' },
      { facets: 'true', inStock: 'false', price: 'under-25' },
    ];
    // A catalogue of its own (each app has one), reading the same database as the app.
    const partCatalog = new PartCatalogue({ ttlMs: Infinity });
    for (const raw of queries) {
      const query = partListQuerySchema.parse(raw);
      const fromDb = await listParts(query);
      const fromMemory = await partCatalog.list(query);
      expect({ raw, ...fromMemory }).toEqual({ raw, ...fromDb });
    }
  });
});

describe('cache keys are canonical', () => {
  it('one entry per search however it is spelled, and one for every page past the end', async () => {
    const catalogue = new PartCatalogue({ ttlMs: Infinity });
    const list = (raw: Record<string, string>) => catalogue.listAnswer(partListQuerySchema.parse(raw));
    await list({ q: 'brake pad' });
    const size = catalogue.size;
    const same = await Promise.all([
      list({ q: 'Brake   PAD' }),
      list({ q: 'brake pad pad' }),
      list({ q: 'brake, pád' }),
    ]);
    expect(catalogue.size).toBe(size);
    expect(new Set(same.map((a) => a.etag)).size).toBe(1);

    const total = (await list({ limit: '5' })).total;
    const lastPage = Math.ceil(total / 5);
    const before = catalogue.size;
    const deep = [lastPage + 1, lastPage + 7, 999, 100_000].map((page) =>
      list({ limit: '5', page: String(page) }),
    );
    const answers = await Promise.all(deep);
    expect(answers.every((a) => a.body.toString() === '[]')).toBe(true);
    expect(catalogue.size).toBe(before + 1);
  });
});

describe('one catalogue per app', () => {
  it('keeps its own answers, and every write reaches each app’s catalogue', async () => {
    const a = new PartCatalogue({ ttlMs: Infinity });
    const b = new PartCatalogue({ ttlMs: Infinity });
    const id = await insertPart({ availableQty: 10 });
    expect(qtyIn(await a.partAnswer(id))).toBe(10);
    expect(a.peekPart(id)).toBeDefined();
    expect(b.peekPart(id)).toBeUndefined();
    expect(qtyIn(await b.partAnswer(id))).toBe(10);
    await PartModel.updateOne({ _id: id }, { $inc: { availableQty: 5 } });
    expect(qtyIn(await a.partAnswer(id))).toBe(15);
    expect(qtyIn(await b.partAnswer(id))).toBe(15);
  });

  it('lets no answer outlive the TTL of the snapshot it was computed from', async () => {
    let now = 0;
    const catalogue = new PartCatalogue({ ttlMs: 1000, now: () => now });
    const id = await insertPart({ availableQty: 10 });
    await catalogue.warm(); // the snapshot is read at 0
    now = 900;
    expect(qtyIn(await catalogue.partAnswer(id))).toBe(10); // computed at 900 from the snapshot of 0
    // Another process's write: no hook runs here, only the TTL can show it.
    await PartModel.collection.updateOne(
      { _id: new PartModel.base.Types.ObjectId(id) },
      { $set: { availableQty: 3 } },
    );
    expect(qtyIn(await catalogue.partAnswer(id))).toBe(10);
    now = 1000;
    expect(qtyIn(await catalogue.partAnswer(id))).toBe(3);
  });
});

describe('a part’s own answer', () => {
  it('is made for every part at warm-up and not pushed out by the list pages kept after it', async () => {
    const maxBytes = 1 << 20;
    const catalogue = new PartCatalogue({ ttlMs: Infinity, maxBytes });
    const id = await insertPart({ availableQty: 10 });
    await catalogue.warm();
    const kept = catalogue.peekPart(id);
    expect(kept).toBeDefined();
    // More distinct searches than the list pages' budget holds: the oldest of those go, the
    // parts' answers stay (shoppers browse pages, then open parts).
    const searches = 15_000;
    for (let i = 0; i < searches; i++) {
      await catalogue.listAnswer(partListQuerySchema.parse({ q: `no such part ${i}` }));
    }
    expect(catalogue.size).toBeLessThan(searches);
    expect(catalogue.sizeBytes).toBeLessThanOrEqual(maxBytes);
    expect(catalogue.peekPart(id)).toBe(kept);
    expect(catalogue.peekPart(id.toUpperCase())).toBe(kept);
  });

  it('is not kept when the part changed while it was being made, and goes when the part changes', async () => {
    const catalogue = new PartCatalogue({ ttlMs: Infinity });
    const id = await insertPart({ availableQty: 10 });
    const other = await insertPart({ availableQty: 20 });
    await catalogue.warm();
    catalogue.invalidate({ ids: [id] }); // as the write feed does after a stock change
    expect(catalogue.peekPart(id)).toBeUndefined();
    expect(catalogue.peekPart(other)).toBeDefined(); // only the changed part's answer goes
    expect(qtyIn(await catalogue.partAnswer(id))).toBe(10); // re-read, and kept again
    expect(catalogue.peekPart(id)).toBeDefined();
    // A write lands after a caller's snapshot was found current but before its answer is made:
    // that caller arrived before the write and may get the part as it was; the answer is not kept.
    await PartModel.collection.updateOne(
      { _id: new PartModel.base.Types.ObjectId(id) },
      { $inc: { availableQty: 1 } },
    );
    const answering = catalogue.partAnswer(id); // finds the snapshot current, answers a tick later
    catalogue.invalidate({ ids: [id] }); // the write's hook, in between
    expect(qtyIn(await answering)).toBe(10);
    expect(catalogue.peekPart(id)).toBeUndefined();
    expect(qtyIn(await catalogue.partAnswer(id))).toBe(11);
    expect(catalogue.peekPart(id)).toBeDefined();
  });
});

describe('CatalogCache', () => {
  const deferred = () => {
    let resolve!: (v: Loaded) => void;
    const promise = new Promise<Loaded>((r) => (resolve = r));
    return { promise, resolve };
  };
  const opts = { ttlMs: Infinity, maxBytes: 1 << 20 };

  it('does not store a load that a write overtook, and a caller arriving after the write reads again', async () => {
    const cache = new CatalogCache(opts);
    const slow = deferred();
    let loads = 0;
    const first = cache.get('k', () => (loads++, slow.promise));
    await Promise.resolve();
    cache.invalidate({ ids: ['aa'] }); // a stock write finishes while the read is in flight
    const late = cache.get('k', async () => (loads++, { value: 'new', ids: ['aa'] }));
    slow.resolve({ value: 'old', ids: ['aa'] });
    expect(JSON.parse((await first).body.toString())).toBe('old'); // concurrent with the write: either is fine
    expect(JSON.parse((await late).body.toString())).toBe('new');
    expect(loads).toBe(2);
    expect(JSON.parse((await cache.get('k', async () => ({ value: 'x' }))).body.toString())).toBe('new');
  });

  it('keeps an in-flight result that the write did not touch', async () => {
    const cache = new CatalogCache(opts);
    const slow = deferred();
    const first = cache.get('k', () => slow.promise);
    cache.invalidate({ ids: ['bb'] });
    slow.resolve({ value: 'v', ids: ['aa'] });
    await first;
    expect(cache.size).toBe(1);
    cache.invalidate({ ids: ['AA'] });
    expect(cache.size).toBe(0);
  });

  it('coalesces concurrent misses into one load', async () => {
    const cache = new CatalogCache(opts);
    let loads = 0;
    const load = async () => (loads++, { value: [1, 2, 3] });
    const all = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', load)));
    expect(loads).toBe(1);
    expect(new Set(all.map((e) => e.etag)).size).toBe(1);
  });

  it('expires entries after the TTL and caches nothing with TTL 0', async () => {
    let now = 1000;
    const cache = new CatalogCache({ ...opts, ttlMs: 2000, now: () => now });
    let loads = 0;
    const load = async () => (loads++, { value: loads });
    await cache.get('k', load);
    now += 1999;
    await cache.get('k', load);
    expect(loads).toBe(1);
    now += 1;
    await cache.get('k', load);
    expect(loads).toBe(2);
    const off = new CatalogCache({ ...opts, ttlMs: 0 });
    await off.get('k', load);
    await off.get('k', load);
    expect(loads).toBe(4);
    expect(off.size).toBe(0);
  });

  it('stays within its byte budget, dropping the least recently used entries', async () => {
    const load = (c: string) => async () => ({ value: c.repeat(98) }); // 100 bytes of JSON
    // Room for two such entries (body, key and bookkeeping), not three.
    const one = entryBytes('a', build({ value: 'a'.repeat(98) }, 0));
    const cache = new CatalogCache({ ...opts, maxBytes: Math.floor(2.5 * one) });
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('a', load('a')); // a is now the most recent
    await cache.get('c', load('c'));
    expect(cache.size).toBe(2);
    expect(cache.sizeBytes).toBe(2 * one);
    let reloaded = false;
    await cache.get('a', async () => ((reloaded = true), { value: 'a' }));
    expect(reloaded).toBe(false);
    await cache.get('b', async () => ((reloaded = true), { value: 'b' }));
    expect(reloaded).toBe(true);
  });

  it.each([
    [
      'findOneAndUpdate',
      { _id: 'a'.repeat(24), availableQty: { $gte: 5 } },
      { $inc: { availableQty: -5 } },
      {},
      'one',
    ],
    ['updateOne', { _id: 'a'.repeat(24) }, { $set: { minOrderQty: 3, updatedAt: new Date() } }, {}, 'one'],
    ['updateOne', { _id: 'a'.repeat(24) }, { $set: { name: 'Renamed' } }, {}, 'all'],
    ['updateOne', { _id: 'a'.repeat(24) }, { $set: { priceCents: 1 } }, {}, 'all'],
    // An edit (PUT /parts/:id) renames and reprices: every answer may have changed.
    [
      'findOneAndUpdate',
      { _id: 'a'.repeat(24), $or: [{ 'priceTiers.0': { $exists: false } }] },
      { $set: { name: 'Renamed', text: 't', img: '/i.svg', priceCents: 1, minOrderQty: 100 } },
      {},
      'all',
    ],
    [
      'findOneAndUpdate',
      { _id: 'a'.repeat(24) },
      { $set: { name: 'R' }, $unset: { priceTiers: '' } },
      {},
      'all',
    ],
    // A raise of the minimum guarded by the first tier is still one part's in-place change.
    [
      'findOneAndUpdate',
      { $or: [{ 'priceTiers.0': { $exists: false } }], _id: 'a'.repeat(24), minOrderQty: { $lte: 300 } },
      { $set: { minOrderQty: 300 } },
      {},
      'one',
    ],
    ['updateOne', { slug: 'x' }, { $inc: { availableQty: 1 } }, {}, 'all'],
    ['updateOne', { _id: { $in: ['a'.repeat(24)] } }, { $inc: { availableQty: 1 } }, {}, 'all'],
    ['updateOne', { _id: 'a'.repeat(24) }, { $inc: { availableQty: 1 } }, { upsert: true }, 'all'],
    ['deleteOne', { _id: 'a'.repeat(24) }, undefined, {}, 'all'],
    ['replaceOne', { _id: 'a'.repeat(24) }, { availableQty: 1 }, {}, 'all'],
  ])('%s %j %j %j invalidates %s', (op, filter, update, options, expected) => {
    const scope = catalogWriteScope(op, filter, update, options);
    expect(scope === 'all' ? 'all' : 'one').toBe(expected);
  });
});
