#!/usr/bin/env node
// What a 5-line checkout must cost the embedded FerretDB at the least, against one order: only the
// writes neither can do without, sent straight through the driver as the API sends them (no API,
// no reads, no note, cart or profile). An order: its part's stock taken with its journal mark in
// one findAndModify, the order inserted with its mail queued, the mark pulled in an updateMany of
// 50 parts. A checkout: the five parts' stock in one bulk write, the checkout (the commit point)
// inserted, the five orders in one insertMany, the five marks pulled the same way. 10,000 parts
// (stock on 200 of them, as in checkout.mjs) and 50,000 orders; alternating rounds; FerretDB's CPU
// per request (from /proc). If the checkout's writes alone cost more than 2× an order's, no API
// change brings a checkout to 2× an order on this database.
//   node bench/api/checkout-floor.mjs        (BENCH_ORDERS=400 orders, 2/5 as many checkouts, per round)
import os from 'node:os';
import { cpuMicros, ObjectId, withOwnFerret } from './support.mjs';

const perRound = Number(process.env.BENCH_ORDERS ?? 400);
const ROUNDS = 5;
const LINES = 5;
const QTY = 100;

await withOwnFerret('floor', async (db, ferretPid) => {
  const [parts, orders, checkouts] = ['parts', 'orders', 'checkouts'].map((name) => db.collection(name));

  const now = new Date();
  const partDocs = Array.from({ length: 10_000 }, (_, i) => ({
    _id: new ObjectId(),
    name: `Brake pad set ${i}`,
    slug: `brake-pad-set-${i}`,
    text: 'Sintered brake pads for the front caliper of many touring motorcycles. '.repeat(3),
    img: `https://img.example/parts/${i}.jpg`,
    priceCents: 1000 + i,
    minOrderQty: QTY,
    availableQty: 100_000_000,
    category: 'brakes',
    createdAt: now,
    updatedAt: now,
  }));
  const order = (id, partId, extra) => ({
    _id: id,
    partId,
    uid: 'bench-customer',
    user: 'customer@example.com',
    userName: 'Customer',
    quantity: QTY,
    partName: 'Brake pad set',
    unitPriceCents: 1000,
    priceCents: 1000 * QTY,
    paid: false,
    status: 'pending',
    hold: 'held',
    createdAt: new Date(),
    updatedAt: new Date(),
    ...extra,
  });
  for (let k = 0; k < partDocs.length; k += 1000) await parts.insertMany(partDocs.slice(k, k + 1000));
  for (let k = 0; k < 50_000; k += 1000) {
    await orders.insertMany(
      Array.from({ length: 1000 }, (_, i) => ({
        ...order(new ObjectId(), partDocs[(k + i) % 200]._id),
        paid: true,
        status: 'shipped',
      })),
    );
  }

  const pool = partDocs.slice(0, 200).map((p) => p._id);
  const outbox = () => ({ outbox: ['placed'] });
  const take = (orderId, partId) => {
    const mark = `+${orderId}:${QTY}`;
    return {
      filter: {
        _id: partId,
        availableQty: { $gte: QTY },
        minOrderQty: { $lte: QTY },
        journal: { $ne: mark },
      },
      update: { $inc: { availableQty: -QTY }, $push: { journal: mark } },
    };
  };

  // The journal clean-up: marks queued per part, pulled 50 parts to a statement.
  const queued = new Map();
  const forget = (partId, orderId) =>
    queued.set(String(partId), [...(queued.get(String(partId)) ?? []), `+${orderId}:${QTY}`]);
  async function flush(all = false) {
    while (queued.size >= 50 || (all && queued.size > 0)) {
      const batch = [...queued].slice(0, 50);
      for (const [id] of batch) queued.delete(id);
      await parts.updateMany(
        { _id: { $in: batch.map(([id]) => new ObjectId(id)) } },
        { $pullAll: { journal: batch.flatMap(([, marks]) => marks) } },
      );
    }
  }

  async function placeOrder() {
    const id = new ObjectId();
    const partId = pool[Math.floor(Math.random() * pool.length)];
    const { filter, update } = take(id, partId);
    await parts.findOneAndUpdate(filter, update, { returnDocument: 'after' });
    await orders.insertOne(order(id, partId, outbox()));
    forget(partId, id);
    await flush();
  }

  async function placeCheckout() {
    const chosen = new Set();
    while (chosen.size < LINES) chosen.add(pool[Math.floor(Math.random() * pool.length)]);
    const lines = [...chosen].map((partId) => ({ orderId: new ObjectId(), partId }));
    await parts.bulkWrite(
      lines.map((l) => ({ updateOne: take(l.orderId, l.partId) })),
      { ordered: false },
    );
    const checkoutId = new ObjectId();
    await checkouts.insertOne({
      _id: checkoutId,
      uid: 'bench-customer',
      user: 'customer@example.com',
      lines: lines.map((l) => ({
        orderId: String(l.orderId),
        partId: String(l.partId),
        partName: 'Brake pad set',
        quantity: QTY,
        unitPriceCents: 1000,
        priceCents: 1000 * QTY,
      })),
      totalCents: LINES * 1000 * QTY,
      state: 'placed',
      address: '1 Bench Street',
      phone: '+1 555 0100',
      createdAt: new Date(),
      ...outbox(),
    });
    await orders.insertMany(lines.map((l) => order(l.orderId, l.partId, { checkoutId: String(checkoutId) })));
    for (const l of lines) forget(l.partId, l.orderId);
    await flush();
  }

  const cpu = { order: 0, checkout: 0 };
  const count = { order: 0, checkout: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, place, n] of [
      ['order', placeOrder, perRound],
      ['checkout', placeCheckout, Math.round((perRound * 2) / LINES)],
    ]) {
      const before = cpuMicros(ferretPid);
      for (let i = 0; i < n; i++) await place();
      await flush(true);
      cpu[name] += cpuMicros(ferretPid) - before;
      count[name] += n;
    }
  }
  const [o, c] = [cpu.order / count.order / 1000, cpu.checkout / count.checkout / 1000];
  console.log(
    `FerretDB CPU per request, essential writes only (${ROUNDS} rounds, ${count.order} orders, ${count.checkout} checkouts; ${os.cpus().length} CPUs): ` +
      `order ${o.toFixed(2)} ms, ${LINES}-line checkout ${c.toFixed(2)} ms: ${(c / o).toFixed(2)}× (a 2× checkout needs ≤ 2×)`,
  );
});
