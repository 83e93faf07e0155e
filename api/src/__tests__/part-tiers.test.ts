import { STOCK_NOT_EDITABLE, type Order, type Part } from '@motoparts/contracts';
import { OrderModel } from '../orders/model';
import { PartModel } from '../parts/model';
import { cast, uniqueEmail, type Account } from './support/auth';
import { call, insertPart, startTestApp, type TestApp } from './support/harness';

type Err = { error: { code: string; message: string; details?: { path: string; message: string }[] } };

let t: TestApp;
let customer: Account;
let admin: Account;
const adminEmail = uniqueEmail('admin');

beforeAll(async () => {
  // One customer places many orders here; the order limit and the cap have their own tests.
  t = await startTestApp('part_tiers', {
    ADMIN_EMAILS: adminEmail,
    RATE_LIMIT_ORDER: '0/60',
    MAX_OPEN_ORDERS: '0',
  });
  ({ customer, admin } = await cast(t.base, adminEmail));
});
afterAll(() => t.close());

const TIERS = [
  { fromQty: 500, price: 4.5 },
  { fromQty: 1000, price: 4 },
];
const newPart = {
  name: 'Tiered Spark Plug',
  text: 'Cheaper by the box.',
  img: '/images/parts/iridium-spark-plug.svg',
  price: 5,
  qty: 100,
  availableQty: 100_000,
  category: 'parts',
  priceTiers: TIERS,
};
const edit = (part: Part, patch: Record<string, unknown> = {}) => ({
  name: part.name,
  text: part.text,
  img: part.img,
  price: part.price,
  qty: part.qty,
  ...patch,
});

const asAdmin = <T>(method: string, path: string, body?: unknown) =>
  call<T>(t.base, method, path, { token: admin.token, body });
const createPart = async (patch: Record<string, unknown> = {}) => {
  const res = await asAdmin<{ part: Part }>('POST', '/parts', {
    ...newPart,
    name: uniqueEmail('part'),
    ...patch,
  });
  if (res.status !== 201) throw new Error(`part setup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.part;
};
const putPart = (id: string, body: unknown) => asAdmin<Part & Err>('PUT', `/parts/${id}`, body);
const stored = async (id: string) => PartModel.findById(id).lean();
const pathsOf = (res: { body: Err }) => (res.body.error.details ?? []).map((d) => d.path);

describe('tier prices of an order', () => {
  // Below, at and above each tier's first quantity: the highest tier reached, else the part's price.
  it.each([
    [100, 500],
    [499, 500],
    [500, 450],
    [501, 450],
    [999, 450],
    [1000, 400],
    [1001, 400],
  ])('%i pieces are charged %i cents each, and the order stores qty × that', async (qty, unitCents) => {
    const part = await createPart();
    const res = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: part._id, qty, price: 0.01 },
    });
    expect(res.status).toBe(201);
    expect(res.body.price).toBe((unitCents * qty) / 100);
    const order = await OrderModel.findById(res.body._id).lean();
    expect(order).toMatchObject({ unitPriceCents: unitCents, priceCents: unitCents * qty });
    // What My Order shows is the stored total.
    const mine = await call<Order>(t.base, 'GET', `/order/${res.body._id}`, { token: customer.token });
    expect(mine.body.price).toBe((unitCents * qty) / 100);
  });

  it('prices a part without tiers at its own price whatever the quantity', async () => {
    const partsId = await insertPart({ price: 5, availableQty: 100_000 });
    const res = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId, qty: 5000 },
    });
    expect(res.status).toBe(201);
    expect(res.body.price).toBe(25_000);
  });
});

describe('POST /parts with priceTiers', () => {
  it('stores them in cents and answers them in dollars, in every read', async () => {
    const part = await createPart();
    expect(part.priceTiers).toEqual(TIERS);
    expect((await stored(part._id))?.priceTiers).toEqual([
      { fromQty: 500, priceCents: 450 },
      { fromQty: 1000, priceCents: 400 },
    ]);
    expect((await call<Part>(t.base, 'GET', `/parts/${part._id}`)).body.priceTiers).toEqual(TIERS);
    const list = await call<Part[]>(t.base, 'GET', `/parts?q=${encodeURIComponent(part.name)}`);
    expect(list.body.map((p) => p.priceTiers)).toEqual([TIERS]);
  });

  it('answers no priceTiers field for a part without any', async () => {
    const part = await createPart({ priceTiers: [] });
    expect(part).not.toHaveProperty('priceTiers');
    expect((await stored(part._id))?.priceTiers).toBeUndefined();
  });

  it.each([
    [
      'six tiers',
      [200, 300, 400, 500, 600, 700].map((fromQty, i) => ({ fromQty, price: 4.9 - i / 10 })),
      ['priceTiers'],
    ],
    ['a tier at the minimum order', [{ fromQty: 100, price: 4 }], ['priceTiers.0.fromQty']],
    ['a tier not cheaper than the price', [{ fromQty: 200, price: 5 }], ['priceTiers.0.price']],
    [
      'quantities not ascending',
      [
        { fromQty: 500, price: 4 },
        { fromQty: 400, price: 3 },
      ],
      ['priceTiers.1.fromQty'],
    ],
    [
      'prices not falling',
      [
        { fromQty: 200, price: 4 },
        { fromQty: 300, price: 4.5 },
      ],
      ['priceTiers.1.price'],
    ],
    ['a fractional quantity', [{ fromQty: 200.5, price: 4 }], ['priceTiers.0.fromQty']],
    ['three decimals', [{ fromQty: 200, price: 4.001 }], ['priceTiers.0.price']],
    ['an object instead of a list', { fromQty: 200, price: 4 }, ['priceTiers']],
  ])('400s %s, naming priceTiers', async (_case, priceTiers, paths) => {
    const res = await asAdmin<Err>('POST', '/parts', { ...newPart, name: uniqueEmail('bad'), priceTiers });
    expect(res.status).toBe(400);
    expect(pathsOf(res)).toEqual(paths);
    expect(res.body.error.message).toBe(`Invalid input: ${paths.join(', ')}`);
  });
});

describe('PUT /parts/:id', () => {
  it('replaces name, text, photo, price, minimum, category and tiers, and answers the part', async () => {
    const part = await createPart({ category: 'tools' });
    const res = await putPart(part._id, {
      name: 'Renamed Plug',
      text: 'New text.',
      img: '/images/parts/renamed-plug.svg',
      price: 6.5,
      qty: 200,
      category: 'gear',
      priceTiers: [{ fromQty: 300, price: 6 }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      _id: part._id,
      name: 'Renamed Plug',
      text: 'New text.',
      img: '/images/parts/renamed-plug.svg',
      price: 6.5,
      qty: 200,
      availableQty: part.availableQty,
      category: 'gear',
      priceTiers: [{ fromQty: 300, price: 6 }],
    });
    expect(await stored(part._id)).toMatchObject({
      priceCents: 650,
      priceTiers: [{ fromQty: 300, priceCents: 600 }],
    });
  });

  it('keeps the category and the tiers when they are not sent, and removes the tiers on []', async () => {
    const part = await createPart({ category: 'tools' });
    const kept = await putPart(part._id, edit(part, { text: 'Only the text changes.' }));
    expect(kept.status).toBe(200);
    expect(kept.body).toMatchObject({ category: 'tools', priceTiers: TIERS, text: 'Only the text changes.' });
    const removed = await putPart(part._id, edit(part, { priceTiers: [] }));
    expect(removed.status).toBe(200);
    expect(removed.body).not.toHaveProperty('priceTiers');
    expect((await stored(part._id))?.priceTiers).toBeUndefined();
  });

  it('never touches the stock or its journal, and refuses a body that carries availableQty', async () => {
    const part = await createPart();
    // An order leaves its `+id` mark in the journal (no clean-up job runs in these tests).
    const order = await call<Order>(t.base, 'POST', '/order', {
      token: customer.token,
      body: { partsId: part._id, qty: 150 },
    });
    expect(order.status).toBe(201);
    const before = await stored(part._id);
    expect(before?.availableQty).toBe(part.availableQty - 150);
    expect(before?.journal).toEqual([`+${order.body._id}:150`]);

    const refused = await putPart(part._id, edit(part, { name: 'Stock Smuggler', availableQty: 5 }));
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe('Invalid input: availableQty');
    expect(refused.body.error.details).toEqual([{ path: 'availableQty', message: STOCK_NOT_EDITABLE }]);
    expect(await stored(part._id)).toEqual(before);

    const edited = await putPart(part._id, edit(part, { name: 'Edited Plug', qty: 120, price: 5.5 }));
    expect(edited.status).toBe(200);
    expect(edited.body.availableQty).toBe(part.availableQty - 150);
    const after = await stored(part._id);
    expect({ availableQty: after?.availableQty, journal: after?.journal }).toEqual({
      availableQty: before?.availableQty,
      journal: before?.journal,
    });
    expect(after).toMatchObject({ name: 'Edited Plug', minOrderQty: 120, priceCents: 550 });
  });

  it('409s a minimum or a price that the kept tiers do not fit, changing nothing', async () => {
    const part = await createPart();
    const before = await stored(part._id);
    for (const patch of [{ qty: 500 }, { qty: 600 }, { price: 4.5 }, { price: 4 }]) {
      const res = await putPart(part._id, edit(part, patch));
      expect({ patch, status: res.status }).toEqual({ patch, status: 409 });
      expect(res.body.error.message).toMatch(/^The part's priceTiers start at 500 pcs for \$4\.50/);
    }
    expect(await stored(part._id)).toEqual(before);
    // Just inside the first tier, both are accepted.
    const res = await putPart(part._id, edit(part, { qty: 499, price: 4.51 }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ qty: 499, price: 4.51, priceTiers: TIERS });
  });

  it('takes a higher minimum together with new tiers, and 400s tiers sent that do not fit its own minimum', async () => {
    const part = await createPart();
    const bad = await putPart(part._id, edit(part, { qty: 500, priceTiers: TIERS }));
    expect(bad.status).toBe(400);
    expect(pathsOf(bad)).toEqual(['priceTiers.0.fromQty']);
    const good = await putPart(part._id, edit(part, { qty: 500, priceTiers: [{ fromQty: 1000, price: 4 }] }));
    expect(good.status).toBe(200);
    expect(good.body).toMatchObject({ qty: 500, priceTiers: [{ fromQty: 1000, price: 4 }] });
  });

  it('404s an unknown part and 400s a missing body, naming the required fields', async () => {
    const part = await createPart();
    expect((await putPart('0123456789abcdef01234567', edit(part))).status).toBe(404);
    const empty = await putPart(part._id, {});
    expect(empty.status).toBe(400);
    expect(pathsOf(empty).sort()).toEqual(['img', 'name', 'price', 'qty', 'text']);
  });
});

describe('PUT /increaseQty/:id with tiers', () => {
  it('raises the minimum below the first tier and 409s one at or above it', async () => {
    const part = await createPart();
    const refused = await asAdmin<Err>('PUT', `/increaseQty/${part._id}`, { newQuantity: 500 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/priceTiers start at 500 pcs/);
    expect((await stored(part._id))?.minOrderQty).toBe(100);
    const raised = await asAdmin<Part>('PUT', `/increaseQty/${part._id}`, { newQuantity: 499 });
    expect(raised.status).toBe(200);
    expect(raised.body.qty).toBe(499);
    // The direction rule is unchanged: a lower value is not an increase.
    const lower = await asAdmin<Err>('PUT', `/increaseQty/${part._id}`, { newQuantity: 300 });
    expect(lower.status).toBe(409);
    expect(lower.body.error.message).toMatch(/use decreaseQty/);
  });
});

describe('the catalogue after an edit', () => {
  it('answers the new name, price and tiers in the part, the lists, the searches and the sorts', async () => {
    const cheap = await createPart({ name: 'Catalogue Edit Alpha', price: 1, priceTiers: [] });
    const dear = await createPart({ name: 'Catalogue Edit Beta', price: 2, priceTiers: [] });
    const byPrice = async () =>
      (await call<Part[]>(t.base, 'GET', '/parts?q=catalogue%20edit&sort=price')).body.map((p) => p.name);
    // Read every answer once, so each is cached before the edit.
    expect(await byPrice()).toEqual(['Catalogue Edit Alpha', 'Catalogue Edit Beta']);
    const oldEtag = (await call(t.base, 'GET', `/parts/${cheap._id}`)).headers.get('etag');
    expect((await call<Part[]>(t.base, 'GET', '/parts?q=alpha')).body.map((p) => p._id)).toEqual([cheap._id]);

    const res = await putPart(
      cheap._id,
      edit(cheap, { name: 'Catalogue Edit Gamma', price: 3, priceTiers: [{ fromQty: 200, price: 1.5 }] }),
    );
    expect(res.status).toBe(200);

    expect(await byPrice()).toEqual(['Catalogue Edit Beta', 'Catalogue Edit Gamma']);
    const one = await call<Part>(t.base, 'GET', `/parts/${cheap._id}`);
    expect(one.body).toMatchObject({
      name: 'Catalogue Edit Gamma',
      price: 3,
      priceTiers: [{ fromQty: 200, price: 1.5 }],
    });
    expect(one.headers.get('etag')).not.toBe(oldEtag);
    expect((await call<Part[]>(t.base, 'GET', '/parts?q=alpha')).body).toEqual([]);
    expect((await call<Part[]>(t.base, 'GET', '/parts?q=gamma')).body.map((p) => p._id)).toEqual([cheap._id]);
    expect(dear.price).toBe(2);
  });
});
