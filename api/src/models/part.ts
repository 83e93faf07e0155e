import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { DEFAULT_PART_CATEGORY, PART_CATEGORIES } from '@motoparts/contracts';
import { partsWritten } from '../lib/catalog-cache';
import { invalidateOnWrite } from './invalidate';

const partSchema = new Schema(
  {
    name: { type: String, required: true, trim: true },
    /** Natural key for idempotent seeding and stable image names. */
    slug: { type: String, required: true },
    text: { type: String, required: true },
    img: { type: String, required: true },
    /** Unit price in integer cents: no float drift when multiplied by a quantity. */
    priceCents: { type: Number, required: true, min: 1 },
    /** Minimum purchase quantity. */
    qty: { type: Number, required: true, min: 1 },
    /** Stock. Only ever changed with conditional, single-document $inc updates. */
    availableQty: { type: Number, required: true, min: 0 },
    /**
     * Stock journal: `+<orderId>` is pushed in the same atomic update that takes an order's
     * pieces, `-<orderId>` in the one that gives them back, so each step happens at most once and
     * a recovery pass can tell whether it happened. Entries are pulled once their order records
     * the step (services/stock.ts), so the list stays as short as the steps in flight.
     */
    journal: { type: [String], default: undefined },
    /** Department; parts stored before categories existed read as the default (services/parts.ts). */
    category: { type: String, enum: PART_CATEGORIES, default: DEFAULT_PART_CATEGORY },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// One index per list order of GET /parts (services/parts.ts SORTS), each with the `_id` tie-break
// in the same direction, so a page is an index walk and never an in-memory sort (api/INDEXES.md).
partSchema.index({ name: 1, _id: 1 });
partSchema.index({ name: -1, _id: 1 });
partSchema.index({ priceCents: 1, _id: 1 });
partSchema.index({ priceCents: -1, _id: 1 });
partSchema.index({ slug: 1 }, { unique: true });
partSchema.index({ journal: 1 });
// ?category= narrows any list order; within it the `_id` order (the default list) is an index walk.
partSchema.index({ category: 1, _id: 1 });
// Every write drops the cached catalogue reads it can change (lib/catalog-cache.ts).
invalidateOnWrite(partSchema, partsWritten);

export type PartDoc = InferSchemaType<typeof partSchema> & { _id: Types.ObjectId };
export const PartModel = model('Part', partSchema);
