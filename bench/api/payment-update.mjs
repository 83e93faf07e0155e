#!/usr/bin/env node
// What the payment's one update costs the embedded FerretDB by the shape of the order's outbox, in
// its CPU per update, each shape against the others in the same run: the update before orders had
// an outbox (findOneAndUpdate, the order returned, as 973bc0d sent it), an entry as a nested
// document with a `mailDue` flag set beside it (the earliest shape), and an entry as a string,
// nothing else (as stored now); and the round trip of each update over the one connection, which
// the webhook's rate rests on. Orders placed as the API writes them, 50,000 in the collection;
// shapes interleaved in batches of 100.
//   node bench/api/payment-update.mjs        (BENCH_ORDERS=1500 per shape)
import os from 'node:os';
import { cpuMicros, ObjectId, withOwnFerret } from './support.mjs';

const perShape = Number(process.env.BENCH_ORDERS ?? 1500);
const BATCH = 100;
const PRICE = 123_400;

await withOwnFerret('payment', async (db, ferretPid) => {
  const orders = db.collection('orders');
  const placed = () => ({
    _id: new ObjectId(),
    partId: new ObjectId(),
    uid: 'bench-customer-uid-0000000001',
    user: 'customer@example.com',
    userName: 'Customer Name',
    quantity: 100,
    partName: 'Brake pad set 1234',
    unitPriceCents: PRICE / 100,
    priceCents: PRICE,
    paid: false,
    status: 'pending',
    hold: 'held',
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  const nested = (kind) => ({ id: new ObjectId().toHexString(), kind, createdAt: new Date() });
  const paid = () => ({
    paid: true,
    transactionId: 'pi_bench_0000000000000000000000',
    paidAt: new Date(),
    updatedAt: new Date(),
  });
  const filter = (_id) => ({
    _id,
    paid: false,
    priceCents: PRICE,
    status: { $ne: 'expired' },
    hold: { $nin: ['reserving', 'releasing', 'released'] },
  });
  const withEvent = () => ({ ...paid(), paidEventId: 'evt_bench_00000000000000000000' });
  const shapes = {
    'before the outbox': {
      doc: placed,
      pay: (_id) => orders.findOneAndUpdate(filter(_id), { $set: paid() }, { returnDocument: 'after' }),
    },
    'entry as a document': {
      doc: () => ({ ...placed(), outbox: [nested('placed')], mailDue: true }),
      pay: (_id) =>
        orders.updateOne(filter(_id), {
          $set: { ...withEvent(), mailDue: true },
          $push: { outbox: nested('paid') },
        }),
    },
    'entry as a string': {
      doc: () => ({ ...placed(), outbox: ['placed'] }),
      pay: (_id) => orders.updateOne(filter(_id), { $set: withEvent(), $push: { outbox: 'paid' } }),
    },
  };
  const ids = {};
  for (const [name, shape] of Object.entries(shapes)) {
    const docs = Array.from({ length: perShape }, shape.doc);
    ids[name] = docs.map((d) => d._id);
    for (let k = 0; k < docs.length; k += 1000) await orders.insertMany(docs.slice(k, k + 1000));
  }
  const rest = 50_000 - perShape * Object.keys(shapes).length;
  for (let k = 0; k < rest; k += 1000) {
    const n = Math.min(1000, rest - k);
    await orders.insertMany(
      Array.from({ length: n }, () => ({ ...placed(), paid: true, status: 'shipped' })),
    );
  }
  const cpu = Object.fromEntries(Object.keys(shapes).map((name) => [name, 0]));
  const wall = Object.fromEntries(Object.keys(shapes).map((name) => [name, 0]));
  for (let at = 0; at < perShape; at += BATCH) {
    for (const [name, shape] of Object.entries(shapes)) {
      const before = cpuMicros(ferretPid);
      const started = performance.now();
      for (const _id of ids[name].slice(at, at + BATCH)) await shape.pay(_id);
      wall[name] += performance.now() - started;
      cpu[name] += cpuMicros(ferretPid) - before;
    }
  }
  const base = cpu['before the outbox'];
  console.log(
    `FerretDB CPU per payment update, ${perShape} orders a shape among 50,000 (${os.cpus().length} CPUs):`,
  );
  for (const [name, micros] of Object.entries(cpu)) {
    console.log(
      `  ${name.padEnd(20)} ${(micros / perShape / 1000).toFixed(3)} ms  (${(micros / base).toFixed(2)}× before the outbox); ` +
        `${(wall[name] / perShape).toFixed(3)} ms a round trip (${(wall[name] / wall['before the outbox']).toFixed(2)}×)`,
    );
  }
});
