import {
  DEFAULT_PART_CATEGORY,
  isInStock,
  PART_CATEGORIES,
  PRICE_BAND_IDS,
  PRICE_BANDS,
  priceBandOf,
  type PartFacets,
  type Part,
  type PartCategory,
  type PartEdit,
  type PartInput,
  type PriceTier,
  type PriceTierCents,
  type PartListQuery,
  type PartSort,
  STOCK_NOT_EDITABLE,
} from '@motoparts/contracts';
import { AppError } from '../lib/app-error';
import { toCents, toDollars } from '../lib/money';
import { ON_SALE, PartModel, type PartDoc } from './model';

export function toPart(doc: PartDoc): Part {
  return {
    _id: String(doc._id),
    name: doc.name,
    text: doc.text,
    img: doc.img,
    price: toDollars(doc.priceCents),
    qty: doc.minOrderQty,
    availableQty: doc.availableQty,
    category: categoryOf(doc.category),
    // Only parts that have tiers carry the field, so the answers of the others are unchanged.
    ...(doc.priceTiers?.length
      ? { priceTiers: doc.priceTiers.map((t) => ({ fromQty: t.fromQty, price: toDollars(t.priceCents) })) }
      : {}),
  };
}

const storedTiers = (tiers: readonly PriceTier[]): PriceTierCents[] =>
  tiers.map((t) => ({ fromQty: t.fromQty, priceCents: toCents(t.price) }));

/** Parts stored before categories existed have none: they are in the default one. */
export function categoryOf(value: unknown): PartCategory {
  return (PART_CATEGORIES as readonly unknown[]).includes(value)
    ? (value as PartCategory)
    : DEFAULT_PART_CATEGORY;
}

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') // one dash at most: runs are one dash already
      .slice(0, 80) || 'part'
  );
}

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The database's search (used only without the in-memory catalogue: the cache off, or a catalogue
 * past its size bound): each word must appear (case-insensitive, literally, anywhere) in the name
 * or the description, in any order. The catalogue's own search (parts/search-index.ts) also
 * forgives typos and joined or split words, and ranks.
 */
export function searchWords(q: string | undefined): string[] {
  if (!q) return [];
  return [...new Set(q.toLowerCase().split(/\s+/u).filter(Boolean))];
}

/** A list order of GET /parts; `_id` is the default one (no `sort`). */
export type SortKey = PartSort | '_id';
type SortField = 'name' | 'priceCents' | '_id';

/**
 * Every list order of GET /parts, as MongoDB sorts it: by each field in turn (1 ascending, -1
 * descending), `_id` last so equal names or prices keep one order across pages. The database
 * query (`mongoSort`) and the in-memory catalogue (`comparatorOf`) both read this table.
 */
const SORTS: Record<SortKey, readonly (readonly [SortField, 1 | -1])[]> = {
  _id: [['_id', 1]],
  name: [
    ['name', 1],
    ['_id', 1],
  ],
  '-name': [
    ['name', -1],
    ['_id', 1],
  ],
  price: [
    ['priceCents', 1],
    ['_id', 1],
  ],
  '-price': [
    ['priceCents', -1],
    ['_id', 1],
  ],
  // ObjectIds start with their creation time: the newest part has the highest `_id`.
  newest: [['_id', -1]],
};

export const sortKeyOf = (query: Pick<PartListQuery, 'sort'>): SortKey => query.sort ?? '_id';

export const mongoSort = (key: SortKey): Record<string, 1 | -1> => Object.fromEntries(SORTS[key]);

/**
 * What the in-memory comparison reads of a part, in MongoDB's orders: the name as UTF-8 bytes
 * (the default binary string order), the price in cents, the id as lower-case hex (whose order is
 * the ObjectId's).
 */
export interface SortFields {
  _id: string;
  nameKey: Buffer;
  priceCents: number;
}

function compareField(field: SortField, a: SortFields, b: SortFields): number {
  switch (field) {
    case 'name':
      return Buffer.compare(a.nameKey, b.nameKey);
    case 'priceCents':
      return a.priceCents - b.priceCents;
    case '_id':
      return a._id < b._id ? -1 : a._id > b._id ? 1 : 0;
  }
}

export function comparatorOf(key: SortKey): (a: SortFields, b: SortFields) => number {
  const fields = SORTS[key];
  return (a, b) => {
    for (const [field, direction] of fields) {
      const c = compareField(field, a, b);
      if (c !== 0) return c * direction;
    }
    return 0;
  };
}

/**
 * The database filter of a list query, except `inStock` (see listParts); `matcherOf` applies the
 * same conditions in memory.
 */
export function listFilter(query: PartListQuery): Record<string, unknown> {
  const and: Record<string, unknown>[] = [];
  for (const word of searchWords(query.q)) {
    const re = { $regex: escapeRegex(word), $options: 'i' };
    and.push({ $or: [{ name: re }, { text: re }] });
  }
  if (query.category) {
    and.push({
      category: query.category === DEFAULT_PART_CATEGORY ? { $in: [query.category, null] } : query.category,
    });
  }
  const band = PRICE_BANDS.find((b) => b.id === query.price);
  if (band) {
    and.push({ priceCents: { $gte: band.min * 100, ...('max' in band ? { $lt: band.max * 100 } : {}) } });
  }
  return and.length === 0 ? { ...ON_SALE } : { $and: [ON_SALE, ...and] };
}

/**
 * The list query's filters for a part in memory, as `listFilter` and listParts's stock check ask
 * the database: the category, the price band, and stock ≥ the minimum order (the search is the
 * catalogue's index). Undefined when nothing is filtered.
 */
export function filterOf(query: PartListQuery): ((part: Part) => boolean) | undefined {
  const { category, inStock, price } = query;
  if (!category && inStock === undefined && !price) return undefined;
  return (part) =>
    (!category || part.category === category) &&
    (!price || priceBandOf(part.price) === price) &&
    (inStock === undefined || isInStock(part) === inStock);
}

/**
 * The facet counts of a search's matches (`searched`: every part the search finds, before the
 * other filters): per choice of each filter, the parts the other filters keep. One pass.
 */
export function countFacets(searched: Iterable<Part>, query: PartListQuery): PartFacets {
  const facets: PartFacets = {
    category: Object.fromEntries(PART_CATEGORIES.map((c) => [c, 0])) as PartFacets['category'],
    inStock: { true: 0, false: 0 },
    price: Object.fromEntries(PRICE_BAND_IDS.map((b) => [b, 0])) as PartFacets['price'],
  };
  for (const part of searched) {
    const stocked = isInStock(part);
    const band = priceBandOf(part.price);
    const byCategory = query.category === undefined || query.category === part.category;
    const byStock = query.inStock === undefined || query.inStock === stocked;
    const byPrice = query.price === undefined || query.price === band;
    if (byStock && byPrice) facets.category[part.category]++;
    if (byCategory && byPrice) facets.inStock[stocked ? 'true' : 'false']++;
    if (byCategory && byStock) facets.price[band]++;
  }
  return facets;
}

/** GET /parts from the database (no in-memory catalogue): one page, its total and its facets if asked. */
export async function listParts(
  query: PartListQuery,
): Promise<{ items: Part[]; total: number; facets?: PartFacets }> {
  const page = await listPage(query);
  if (!query.facets) return page;
  // The search's matches without the filters, read once through a cursor and counted here.
  const searched = listFilter({ ...query, category: undefined, price: undefined });
  const all: Part[] = [];
  for await (const doc of PartModel.find(searched).lean<PartDoc>().cursor()) all.push(toPart(doc));
  return { ...page, facets: countFacets(all, query) };
}

async function listPage(query: PartListQuery): Promise<{ items: Part[]; total: number }> {
  const filter = listFilter(query);
  const sort = mongoSort(sortKeyOf(query));
  const start = (query.page - 1) * query.limit;
  if (query.inStock !== undefined) {
    // "In stock" compares two fields (availableQty ≥ minOrderQty); FerretDB v1 implements no $expr, so
    // the comparison runs here over one cursor of the other conditions' matches, in list order.
    const items: Part[] = [];
    let total = 0;
    for await (const doc of PartModel.find(filter).sort(sort).lean<PartDoc>().cursor()) {
      if (isInStock({ qty: doc.minOrderQty, availableQty: doc.availableQty }) !== query.inStock) continue;
      if (total >= start && items.length < query.limit) items.push(toPart(doc));
      total++;
    }
    return { items, total };
  }
  const [docs, total] = await Promise.all([
    PartModel.find(filter).sort(sort).skip(start).limit(query.limit).lean<PartDoc[]>(),
    PartModel.countDocuments(filter),
  ]);
  return { items: docs.map(toPart), total };
}

export async function getPart(id: string): Promise<Part> {
  const doc = await PartModel.findOne({ _id: id, ...ON_SALE }).lean<PartDoc>();
  if (!doc) throw AppError.notFound('Part');
  return toPart(doc);
}

export async function createPart(input: PartInput): Promise<Part> {
  // A unique slug per name; a second product with the same name gets a numbered slug.
  const base = slugify(input.name);
  for (let n = 1; n <= 20; n++) {
    const slug = n === 1 ? base : `${base}-${n}`;
    try {
      const doc = await PartModel.create({
        name: input.name,
        slug,
        text: input.text,
        img: input.img,
        priceCents: toCents(input.price),
        minOrderQty: input.qty,
        availableQty: input.availableQty,
        category: input.category,
        ...(input.priceTiers?.length ? { priceTiers: storedTiers(input.priceTiers) } : {}),
      });
      return toPart(doc.toObject());
    } catch (err) {
      if ((err as { code?: unknown }).code !== 11000) throw err;
    }
  }
  throw AppError.conflict('Too many products with this name already exist.');
}

/**
 * A filter that matches a part only while its stored tiers (if any) start above `minOrderQty` and, when
 * given, cost less than `priceCents`. Stored tiers ascend in quantity and fall in price, so the
 * first tier decides. It is addressed by index (`priceTiers.0.…`): the embedded FerretDB matches
 * that as MongoDB does, but not a `$not` or `$elemMatch` through the array.
 */
function tiersStayValid(minOrderQty: number, priceCents?: number): Record<string, unknown> {
  const first: Record<string, unknown> = { 'priceTiers.0.fromQty': { $gt: minOrderQty } };
  if (priceCents !== undefined) first['priceTiers.0.priceCents'] = { $lt: priceCents };
  return { $or: [{ 'priceTiers.0': { $exists: false } }, first] };
}

/** The 409 for a minimum order or price that the part's stored tiers do not fit. */
function tiersConflict(doc: PartDoc, change: string): AppError {
  const first = doc.priceTiers?.[0];
  // No tiers now: they were removed between the refused update and this read.
  if (!first) return AppError.conflict('The part changed while it was being edited. Please try again.');
  const price = `$${toDollars(first.priceCents).toFixed(2)}`;
  return AppError.conflict(
    `The part's priceTiers start at ${first.fromQty} pcs for ${price}: the minimum order must stay below ${first.fromQty} and the price above ${price}. ${change}`,
    { priceTiers: toPart(doc).priceTiers },
  );
}

/**
 * PUT /parts/:id: the part's name, text, photo, price, minimum order and, when sent, category and
 * tiers (`[]` removes them), in one update by `_id`. Never the stock or its journal: they move only
 * through restocks, write-offs and orders (the stock invariant, api/README.md). Tiers sent with
 * the edit were checked against its own minimum and price (400); kept tiers are checked against
 * them in the update's filter, so a concurrent change cannot slip between check and write (409).
 */
export async function editPart(id: string, edit: PartEdit): Promise<Part> {
  const priceCents = toCents(edit.price);
  const set: Record<string, unknown> = {
    name: edit.name,
    text: edit.text,
    img: edit.img,
    priceCents,
    minOrderQty: edit.qty,
  };
  if (edit.category) set.category = edit.category;
  const update: Record<string, unknown> = { $set: set };
  let filter: Record<string, unknown> = { _id: id };
  if (edit.priceTiers === undefined) filter = { _id: id, ...tiersStayValid(edit.qty, priceCents) };
  else if (edit.priceTiers.length > 0) set.priceTiers = storedTiers(edit.priceTiers);
  else update.$unset = { priceTiers: '' };

  const doc = await PartModel.findOneAndUpdate(filter, update, { new: true }).lean<PartDoc>();
  if (doc) return toPart(doc);
  const current = await PartModel.findById(id).lean<PartDoc>();
  if (!current) throw AppError.notFound('Part');
  throw tiersConflict(current, 'Send priceTiers with this change to replace them.');
}

/** The part's stored photo address (404 when there is no such part). */
export async function storedImg(id: string): Promise<string> {
  const doc = await PartModel.findById(id, { img: 1 }).lean<{ img: string }>();
  if (!doc) throw AppError.notFound('Part');
  return doc.img;
}

/**
 * DELETE /parts/:id. A part that open orders still need (`hasOpenOrders`: holds, paid orders on
 * their way, disputes, an order being placed) is archived rather than removed: gone from the
 * catalogue, carts and new orders, kept so those orders can still give pieces back to it. Any
 * other part is removed. It is archived first in either case, so no order can take its stock
 * between the check and the removal.
 */
export async function deletePart(
  id: string,
  hasOpenOrders: (partId: string) => Promise<boolean>,
): Promise<{ archived: boolean }> {
  const doc = await PartModel.findOneAndUpdate(
    { _id: id },
    { $set: { archived: true } },
    { new: true },
  ).lean<PartDoc>();
  if (!doc) throw AppError.notFound('Part');
  if (await hasOpenOrders(id)) return { archived: true };
  await PartModel.deleteOne({ _id: id, archived: true });
  return { archived: false };
}

/**
 * Adds stock with one atomic $inc: concurrent restocks never overwrite each other. With `from`,
 * only while the stock is still that many pieces (the count the restock was made against; an
 * import's row), checked in the same update, so a file applied twice restocks once (409).
 */
export async function restock(id: string, quantity: number, { from }: { from?: number } = {}): Promise<Part> {
  const doc = await PartModel.findOneAndUpdate(
    from === undefined ? { _id: id } : { _id: id, availableQty: from },
    { $inc: { availableQty: quantity } },
    { new: true },
  ).lean<PartDoc>();
  if (doc) return toPart(doc);
  const current = await PartModel.findById(id, { availableQty: 1 }).lean<PartDoc>();
  if (!current) throw AppError.notFound('Part');
  throw AppError.conflict(stockMovedMessage(current.availableQty, from ?? current.availableQty));
}

/** Why a change counted against `expected` pieces of stock was refused. */
export const stockMovedMessage = (now: number, expected: number): string =>
  `is ${now} now, not ${expected}: the stock ${STOCK_NOT_EDITABLE}`;

/** Takes stock away (admin write-off), never below zero: a conditional atomic $inc. */
export async function reduceStock(id: string, quantity: number): Promise<Part> {
  const doc = await PartModel.findOneAndUpdate(
    { _id: id, availableQty: { $gte: quantity } },
    { $inc: { availableQty: -quantity } },
    { new: true },
  ).lean<PartDoc>();
  if (doc) return toPart(doc);
  const exists = await PartModel.exists({ _id: id });
  if (!exists) throw AppError.notFound('Part');
  throw AppError.conflict(`Not enough stock to remove ${quantity} pieces.`);
}

/**
 * Sets the minimum purchase quantity. `increase` only raises it and `decrease` only lowers it,
 * and a raise stays below the part's first price tier, checked in the same conditional update
 * (no read-then-write).
 */
export async function setMinimumQty(
  id: string,
  newQuantity: number,
  direction: 'increase' | 'decrease',
): Promise<Part> {
  const guard = direction === 'increase' ? { $lte: newQuantity } : { $gte: newQuantity };
  const filter =
    direction === 'increase'
      ? { ...tiersStayValid(newQuantity), _id: id, minOrderQty: guard }
      : { _id: id, minOrderQty: guard };
  const doc = await PartModel.findOneAndUpdate(
    filter,
    { $set: { minOrderQty: newQuantity } },
    { new: true },
  ).lean<PartDoc>();
  if (doc) return toPart(doc);
  const current = await PartModel.findById(id).lean<PartDoc>();
  if (!current) throw AppError.notFound('Part');
  if (direction === 'increase' && current.minOrderQty <= newQuantity) {
    throw tiersConflict(current, 'Change the tiers first (PUT /parts/:id).');
  }
  throw AppError.conflict(
    direction === 'increase'
      ? 'The new minimum quantity is lower than the current one; use decreaseQty.'
      : 'The new minimum quantity is higher than the current one; use increaseQty.',
  );
}
