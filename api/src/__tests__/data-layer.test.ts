import { PartModel } from '../parts/model';
import { poolSize } from '../lib/env';
import { insertPart, startTestApp, type TestApp } from './support/harness';

// Runs on the API's own Mongoose connection. Against FerretDB it only passes with one connection
// (docs/architecture.md): widen the pool and it fails, which is the point.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('data_layer');
});
afterAll(() => t.close());

it('50 concurrent conditional reservations of 100 on stock 1000: exactly 10 succeed, stock ends at 0', async () => {
  if (t.env.MONGODB_EMBEDDED) expect(poolSize(t.env)).toBe(1);
  const id = await insertPart({ availableQty: 1000 });
  const results = await Promise.all(
    Array.from({ length: 50 }, () =>
      PartModel.findOneAndUpdate(
        { _id: id, availableQty: { $gte: 100 } },
        { $inc: { availableQty: -100 } },
        { new: true },
      ).lean(),
    ),
  );
  expect(results.filter((r) => r !== null)).toHaveLength(10);
  const after = await PartModel.findById(id).lean();
  expect(after?.availableQty).toBe(0);
});

it('50 concurrent plain $inc lose no update', async () => {
  const id = await insertPart({ availableQty: 0 });
  await Promise.all(
    Array.from({ length: 50 }, () => PartModel.updateOne({ _id: id }, { $inc: { availableQty: 7 } })),
  );
  expect((await PartModel.findById(id).lean())?.availableQty).toBe(350);
});

it('the embedded FerretDB answers a lookup by _id (or by a list of ids) from the _id index, also with other conditions', async () => {
  // Upstream FerretDB 1.24 reads the whole collection for these (its query never matches the
  // index it builds); the tools build patches that (scripts/ferretdb-build.mjs). MongoDB always
  // uses the _id index, so there is nothing to check there.
  if (!t.env.MONGODB_EMBEDDED) return;
  const id = await insertPart({ availableQty: 1000 });
  const db = PartModel.db.db;
  if (!db) throw new Error('not connected');
  for (const filter of [{ _id: id }, { _id: id, availableQty: { $gte: 100 } }, { _id: { $in: [id, id] } }]) {
    const plan = JSON.stringify(
      await db.command({ explain: { find: PartModel.collection.collectionName, filter } }),
    );
    expect(plan).toMatch(/USING INDEX/);
    expect(plan).not.toMatch(/detail=SCAN/);
  }
});
