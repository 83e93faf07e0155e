import type { Part, PartInput, PartListQuery } from '@motoparts/contracts';
import { AppError } from '../errors';
import { toCents, toDollars } from '../lib/money';
import { PartModel, type PartDoc } from '../models/part';

export function toPart(doc: PartDoc): Part {
  return {
    _id: String(doc._id),
    name: doc.name,
    text: doc.text,
    img: doc.img,
    price: toDollars(doc.priceCents),
    qty: doc.qty,
    availableQty: doc.availableQty,
  };
}

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80) || 'part'
  );
}

export const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const SORTS = {
  name: { name: 1, _id: 1 },
  '-name': { name: -1, _id: 1 },
  price: { priceCents: 1, _id: 1 },
  '-price': { priceCents: -1, _id: 1 },
} as const;

export async function listParts(query: PartListQuery): Promise<{ items: Part[]; total: number }> {
  const filter = query.q ? { name: { $regex: escapeRegex(query.q), $options: 'i' } } : {};
  const sort = query.sort ? SORTS[query.sort] : { _id: 1 as const };
  const [docs, total] = await Promise.all([
    PartModel.find(filter)
      .sort(sort)
      .skip((query.page - 1) * query.limit)
      .limit(query.limit)
      .lean<PartDoc[]>(),
    PartModel.countDocuments(filter),
  ]);
  return { items: docs.map(toPart), total };
}

export async function getPart(id: string): Promise<Part> {
  const doc = await PartModel.findById(id).lean<PartDoc>();
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
        qty: input.qty,
        availableQty: input.availableQty,
      });
      return toPart(doc.toObject());
    } catch (err) {
      if ((err as { code?: unknown }).code !== 11000) throw err;
    }
  }
  throw AppError.conflict('Too many products with this name already exist.');
}

export async function deletePart(id: string): Promise<void> {
  const res = await PartModel.deleteOne({ _id: id });
  if (res.deletedCount === 0) throw AppError.notFound('Part');
}

/** Adds stock with one atomic $inc: concurrent restocks never overwrite each other. */
export async function restock(id: string, quantity: number): Promise<Part> {
  const doc = await PartModel.findOneAndUpdate(
    { _id: id },
    { $inc: { availableQty: quantity } },
    { new: true },
  ).lean<PartDoc>();
  if (!doc) throw AppError.notFound('Part');
  return toPart(doc);
}

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
 * checked in the same conditional update (no read-then-write).
 */
export async function setMinimumQty(
  id: string,
  newQuantity: number,
  direction: 'increase' | 'decrease',
): Promise<Part> {
  const guard = direction === 'increase' ? { $lte: newQuantity } : { $gte: newQuantity };
  const doc = await PartModel.findOneAndUpdate(
    { _id: id, qty: guard },
    { $set: { qty: newQuantity } },
    { new: true },
  ).lean<PartDoc>();
  if (doc) return toPart(doc);
  const exists = await PartModel.exists({ _id: id });
  if (!exists) throw AppError.notFound('Part');
  throw AppError.conflict(
    direction === 'increase'
      ? 'The new minimum quantity is lower than the current one; use decreaseQty.'
      : 'The new minimum quantity is higher than the current one; use increaseQty.',
  );
}
