import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { DEFAULT_PART_CATEGORY, PART_CATEGORIES, type PriceTierCents } from '@motoparts/contracts';
import { writeFeed, type WriteQuery, type WriteScope } from '../lib/write-feed';
import { outboxFields, outboxHooks, outboxIndex } from '../mail/outbox-model';
import { clearRehostFailureOnNewImg, rehostFields } from '../images/model';

/** Where a part's stock stands for the admins' alerts, from worst up. */
export const STOCK_LEVELS = ['soldOut', 'low'] as const;
export type StockLevel = (typeof STOCK_LEVELS)[number];

/** The filter of parts on sale: every read of the catalogue and every new hold of stock adds it. */
export const ON_SALE = { archived: { $ne: true } } as const;

/** A volume price: from `fromQty` pieces a line, `priceCents` a piece (contracts/src/pricing.ts). */
const priceTierSchema = new Schema(
  {
    fromQty: { type: Number, required: true, min: 1 },
    priceCents: { type: Number, required: true, min: 1 },
  },
  { _id: false },
);

const partSchema = new Schema(
  {
    name: { type: String, required: true, trim: true },
    /** Natural key for idempotent seeding and stable image names. */
    slug: { type: String, required: true },
    text: { type: String, required: true },
    img: { type: String, required: true },
    /** Unit price in integer cents: no float drift when multiplied by a quantity. */
    priceCents: { type: Number, required: true, min: 1 },
    /** Minimum purchase quantity (`qty` on the wire). */
    minOrderQty: { type: Number, required: true, min: 1 },
    /** Stock. Only ever changed with conditional, single-document $inc updates. */
    availableQty: { type: Number, required: true, min: 0 },
    /**
     * Stock journal: `+<orderId>` is pushed in the same atomic update that takes an order's
     * pieces, `-<orderId>` in the one that gives them back, so each step happens at most once and
     * a recovery pass can tell whether it happened. Entries are pulled once their order records
     * the step (orders/stock.ts), so the list stays as short as the steps in flight.
     */
    journal: { type: [String], default: undefined },
    /** Department; parts stored before categories existed read as the default (parts/service.ts). */
    category: { type: String, enum: PART_CATEGORIES, default: DEFAULT_PART_CATEGORY },
    /**
     * Volume prices, ascending by `fromQty` (each above `minOrderQty`) with falling prices (each below
     * `priceCents`), as the contract validates them; absent when the part has none. Guards that
     * keep them valid against a new minimum or price read the first tier only, which the order
     * makes sufficient (parts/service.ts).
     */
    priceTiers: { type: [priceTierSchema], default: undefined },
    /**
     * How low the stock stood when admins were last told (parts/stock-alerts.ts): `low` (below
     * LOW_STOCK_FACTOR × the minimum order) or `soldOut` (below one minimum order); absent when
     * above both. Admins are mailed when it moves down, once per crossing.
     */
    stockAlert: { type: String, enum: STOCK_LEVELS },
    /**
     * Set when an admin deletes a part that open orders still point at (parts/service.ts
     * `deletePart`): hidden from the catalogue, carts and new orders, kept so those orders can
     * still give their pieces back to it.
     */
    archived: { type: Boolean },
    /** While `img` is still an outside URL: the re-hosting job's claim and failure (images/jobs.ts). */
    ...rehostFields,
    ...outboxFields,
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// One index per list order of GET /parts (parts/service.ts SORTS), each with the `_id` tie-break
// in the same direction, so a page is an index walk and never an in-memory sort (api/INDEXES.md).
partSchema.index({ name: 1, _id: 1 });
partSchema.index({ name: -1, _id: 1 });
partSchema.index({ priceCents: 1, _id: 1 });
partSchema.index({ priceCents: -1, _id: 1 });
partSchema.index({ slug: 1 }, { unique: true });
partSchema.index({ journal: 1 });
// ?category= narrows any list order; within it the `_id` order (the default list) is an index walk.
partSchema.index({ category: 1, _id: 1 });
partSchema.index(...outboxIndex);
outboxHooks(partSchema, 'parts');
clearRehostFailureOnNewImg(partSchema);

/** Part fields whose change never moves a part between list pages, re-sorts a list or changes a total. */
const IN_PLACE_FIELDS = new Set([
  'availableQty',
  'minOrderQty',
  'text',
  'img',
  'imgClaimUntil',
  'imgFailed',
  'updatedAt',
  'journal',
  'stockAlert',
  'outbox',
  'mailSent',
  'mailNextAt',
  'mailAttempts',
  'mailError',
]);

/** `journal.2` → `journal`: a path inside a field changes that field. */
const topField = (path: string) => path.split('.', 1)[0] ?? path;

function singleId(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  // An ObjectId (or anything with a 24-hex string form); operators like {$in: …} are not.
  if (v !== null && typeof v === 'object' && !Object.keys(v).some((k) => k.startsWith('$'))) {
    const s = String(v);
    if (/^[a-f0-9]{24}$/i.test(s)) return s;
  }
  return undefined;
}

/**
 * What a Mongoose write query on the parts collection may have changed. Updates of one part by
 * `_id` that only touch in-place fields (stock, minimum quantity) concern that part; anything
 * else (create, delete, upsert, name or price change, multi-document filters) concerns them all.
 */
export function catalogWriteScope(
  op: string,
  filter: Record<string, unknown>,
  update: unknown,
  options: { upsert?: boolean },
): WriteScope {
  if (!['updateOne', 'updateMany', 'findOneAndUpdate'].includes(op) || options.upsert) return 'all';
  const id = singleId(filter._id);
  if (!id || update === null || typeof update !== 'object' || Array.isArray(update)) return 'all';
  for (const [k, v] of Object.entries(update)) {
    if (k === '$setOnInsert') continue; // not an upsert: never applied
    if (!k.startsWith('$')) {
      if (!IN_PLACE_FIELDS.has(k)) return 'all';
    } else if (
      v === null ||
      typeof v !== 'object' ||
      Object.keys(v).some((f) => !IN_PLACE_FIELDS.has(topField(f)))
    ) {
      return 'all';
    }
  }
  return { ids: [id] };
}

/**
 * Every write to the parts collection, with what it may have changed: each app's catalogue
 * (parts/catalogue.ts) subscribes and drops what the write can have made stale.
 */
export const partWrites = writeFeed(partSchema, ({ op, filter, update, options }: WriteQuery) =>
  catalogWriteScope(op, filter, update, options),
);

export type PartDoc = Omit<InferSchemaType<typeof partSchema>, 'priceTiers'> & {
  _id: Types.ObjectId;
  priceTiers?: PriceTierCents[] | null;
};
export const PartModel = model('Part', partSchema);
