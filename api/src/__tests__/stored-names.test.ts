import { Types } from 'mongoose';
import { getCart } from '../orders/cart';
import { CartModel, CheckoutModel, CheckoutNoteModel, OrderModel, type OrderDoc } from '../orders/model';
import { toOrder } from '../orders/wire';
import { PartModel, type PartDoc } from '../parts/model';
import { toPart } from '../parts/service';
import { renameStoredFields } from '../stored-names';
import { startTestApp, type TestApp } from './support/harness';
import { got } from './support/faults';

// Documents an earlier release wrote carry the wire's names; the start renames them, and the
// answers built from them are the same as before.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('stored_names');
});
afterAll(() => t.close());

it('renames the old names of parts, orders, carts, checkouts and their notes once', async () => {
  const partId = new Types.ObjectId();
  const orderId = new Types.ObjectId();
  const now = new Date();
  await PartModel.collection.insertOne({
    _id: partId,
    name: 'Old-named part',
    slug: `old-named-${partId.toHexString()}`,
    text: 'Written by an earlier release.',
    img: '/images/parts/test.svg',
    priceCents: 1250,
    qty: 150,
    availableQty: 900,
    createdAt: now,
    updatedAt: now,
  });
  await OrderModel.collection.insertOne({
    _id: orderId,
    partsId: partId,
    Parts: 'Old-named part',
    uid: 'old-names-uid',
    user: 'old-names@motoparts.test',
    userName: 'Old Names',
    qty: 200,
    unitPriceCents: 1250,
    priceCents: 250_000,
    paid: false,
    status: 'pending',
    hold: 'held',
    createdAt: now,
    updatedAt: now,
  });
  const line = { partId: partId.toHexString(), qty: 150, unitPriceCents: 1250 };
  await CartModel.collection.insertOne({ _id: 'old-names-uid', lines: [line], v: 1 } as never);
  const checkoutLine = {
    orderId: new Types.ObjectId().toHexString(),
    partId: partId.toHexString(),
    partName: 'Old-named part',
    qty: 150,
    unitPriceCents: 1250,
    priceCents: 187_500,
  };
  const checkoutId = new Types.ObjectId().toHexString();
  await CheckoutModel.collection.insertOne({
    _id: checkoutId,
    uid: 'old-names-uid',
    user: 'old-names@motoparts.test',
    lines: [checkoutLine],
    totalCents: 187_500,
    state: 'placed',
    address: '1 Old Road',
    phone: '+4712345678',
  } as never);
  await CheckoutNoteModel.collection.insertOne({
    _id: checkoutId,
    at: now,
    draft: { uid: 'old-names-uid', lines: [checkoutLine] },
  } as never);

  // 1 part + 1 order + 1 cart + 1 checkout + 1 note.
  expect(await renameStoredFields()).toBe(5);

  const part = got(await PartModel.findById(partId).lean<PartDoc>());
  expect(part.minOrderQty).toBe(150);
  expect(part).not.toHaveProperty('qty');
  expect(toPart(part)).toMatchObject({ _id: partId.toHexString(), qty: 150, availableQty: 900 });

  const order = got(await OrderModel.findById(orderId).lean<OrderDoc>());
  expect(order).toMatchObject({ partName: 'Old-named part', quantity: 200 });
  expect(String(order.partId)).toBe(partId.toHexString());
  expect(toOrder(order)).toMatchObject({
    partsId: partId.toHexString(),
    Parts: 'Old-named part',
    qty: 200,
    price: 2500,
  });

  const caller = {
    uid: 'old-names-uid',
    email: 'old-names@motoparts.test',
    name: 'Old Names',
    admin: false,
    verified: true,
  };
  expect((await getCart(caller)).lines).toEqual([
    expect.objectContaining({ partId: partId.toHexString(), qty: 150, minQty: 150, unitPrice: 12.5 }),
  ]);
  const checkout = got(await CheckoutModel.findById(checkoutId).lean());
  expect(checkout.lines[0]).toMatchObject({ partId: partId.toHexString(), quantity: 150 });
  expect(checkout.lines[0]).not.toHaveProperty('qty');
  const note = got(await CheckoutNoteModel.findById(checkoutId).lean());
  expect(note.draft?.lines[0]).toMatchObject({ quantity: 150 });

  // Nothing left under an old name: the next start changes nothing.
  expect(await renameStoredFields()).toBe(0);
});
