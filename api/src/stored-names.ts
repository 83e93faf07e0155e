import type { mongo } from 'mongoose';
import type { Logger } from './lib/logger';
import { CartModel, CheckoutModel, CheckoutNoteModel, OrderModel } from './orders/model';
import { PartModel } from './parts/model';

/**
 * The stored documents once carried the spec's wire names (a part's `qty`, an order's `partsId`,
 * `Parts` and `qty`, a cart or checkout line's `qty`); the code names them for what they are
 * (`minOrderQty`, `partId`, `partName`, `quantity`), and only the answers (orders/wire.ts,
 * parts/service.ts `toPart`) speak the wire's. This renames whatever still has an old name. It
 * runs at every start, before the API reports ready: a replica of an earlier release still
 * writing during a rolling upgrade leaves documents with old names that the next start renames,
 * and once none is left each step is one query that matches nothing.
 */
export async function renameStoredFields(log?: Logger): Promise<number> {
  let renamed = 0;
  // Through the driver: the models' strict schemas no longer know the old names.
  const parts = await PartModel.collection.updateMany(
    { qty: { $exists: true } },
    { $rename: { qty: 'minOrderQty' } },
  );
  renamed += parts.modifiedCount;
  const orders = await OrderModel.collection.updateMany(
    { $or: [{ partsId: { $exists: true } }, { Parts: { $exists: true } }, { qty: { $exists: true } }] },
    { $rename: { partsId: 'partId', Parts: 'partName', qty: 'quantity' } },
  );
  renamed += orders.modifiedCount;
  // Lines are array elements, which `$rename` cannot reach: each document's lines are rewritten.
  renamed += await renameLineQty(CartModel.collection, 'lines');
  renamed += await renameLineQty(CheckoutModel.collection, 'lines');
  renamed += await renameLineQty(CheckoutNoteModel.collection, 'draft.lines');
  if (renamed > 0) log?.info({ documents: renamed }, 'stored fields renamed to the current names');
  return renamed;
}

type Line = Record<string, unknown>;

/** Rewrites the `qty` of each line at `path` as `quantity`, document by document. */
async function renameLineQty(collection: mongo.Collection, path: 'lines' | 'draft.lines'): Promise<number> {
  let renamed = 0;
  // One document at a time: every customer's cart may need it.
  for await (const doc of collection.find({ [`${path}.qty`]: { $exists: true } })) {
    const lines = (path === 'lines' ? doc.lines : (doc.draft as { lines?: unknown } | undefined)?.lines) as
      Line[] | undefined;
    if (!Array.isArray(lines)) continue;
    const renamedLines = lines.map(({ qty, ...line }) =>
      qty === undefined || 'quantity' in line ? line : { ...line, quantity: qty },
    );
    // Conditional on the lines read: a write in between (a cart changed) is left for the next start.
    const res = await collection.updateOne(
      { _id: doc._id, [path]: lines },
      { $set: { [path]: renamedLines } },
    );
    renamed += res.modifiedCount;
  }
  return renamed;
}
