import { ADMIN_CANNOT_ORDER, type Order, type OrderInput, type ShippingStatus } from '@motoparts/contracts';
import type { Caller } from '../context';
import { AppError } from '../errors';
import { toDollars } from '../lib/money';
import { OrderModel, type OrderDoc } from '../models/order';
import { PartModel, type PartDoc } from '../models/part';

export function toOrder(doc: OrderDoc): Order {
  return {
    _id: String(doc._id),
    partsId: String(doc.partsId),
    Parts: doc.Parts,
    user: doc.user,
    userName: doc.userName ?? '',
    qty: doc.qty,
    price: toDollars(doc.priceCents),
    paid: doc.paid,
    ...(doc.transactionId ? { transactionId: doc.transactionId } : {}),
    status: doc.status,
    ...(doc.createdAt ? { createdAt: new Date(doc.createdAt).toISOString() } : {}),
  };
}

/**
 * Places an order. The server is the authority: the caller is the buyer, admins cannot buy, the
 * price comes from the part in integer cents, and stock is reserved by one conditional update
 * (`availableQty >= qty` and `qty >= minimum` checked by the database in the same operation).
 */
export async function placeOrder(caller: Caller, input: OrderInput): Promise<Order> {
  if (input.user !== undefined && input.user !== caller.email) {
    throw AppError.forbidden('You can only order for yourself.');
  }
  if (caller.admin) throw AppError.forbidden(ADMIN_CANNOT_ORDER);

  const reserved = await PartModel.findOneAndUpdate(
    { _id: input.partsId, availableQty: { $gte: input.qty }, qty: { $lte: input.qty } },
    { $inc: { availableQty: -input.qty } },
    // No projection: FerretDB's findAndModify does not implement `fields`.
    { new: true },
  ).lean<PartDoc>();

  if (!reserved) {
    const part = await PartModel.findById(input.partsId, { qty: 1, availableQty: 1 }).lean<PartDoc>();
    if (!part) throw AppError.notFound('Part');
    if (input.qty < part.qty) {
      throw AppError.badRequest(`Minimum purchase quantity is ${part.qty}`, [
        { path: 'qty', message: `must be at least ${part.qty}` },
      ]);
    }
    throw AppError.conflict(`Not enough stock: ${part.availableQty} pieces available.`, {
      availableQty: part.availableQty,
    });
  }

  const userName = (input.userName?.trim() || caller.name).slice(0, 120);
  try {
    const doc = await OrderModel.create({
      partsId: reserved._id,
      Parts: reserved.name,
      uid: caller.uid,
      user: caller.email,
      userName,
      qty: input.qty,
      unitPriceCents: reserved.priceCents,
      priceCents: reserved.priceCents * input.qty,
      paid: false,
      status: 'pending',
    });
    return toOrder(doc.toObject());
  } catch (err) {
    // The order was not written: give the reserved pieces back (best effort; one atomic $inc).
    await PartModel.updateOne({ _id: reserved._id }, { $inc: { availableQty: input.qty } }).catch(
      () => undefined,
    );
    throw err;
  }
}

export async function listAllOrders(page: number, limit: number): Promise<{ items: Order[]; total: number }> {
  const [docs, total] = await Promise.all([
    OrderModel.find({})
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<OrderDoc[]>(),
    OrderModel.countDocuments({}),
  ]);
  return { items: docs.map(toOrder), total };
}

/** One account's orders, by its uid (an earlier account with the same email is someone else). */
export async function listOrdersOf(
  uid: string,
  page: number,
  limit: number,
): Promise<{ items: Order[]; total: number }> {
  const [docs, total] = await Promise.all([
    OrderModel.find({ uid })
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<OrderDoc[]>(),
    OrderModel.countDocuments({ uid }),
  ]);
  return { items: docs.map(toOrder), total };
}

/** Loads an order the caller may see: their own, or any order for an admin. */
export async function getOrderFor(
  caller: Caller,
  id: string,
  { adminMaySee = true } = {},
): Promise<OrderDoc> {
  const doc = await OrderModel.findById(id).lean<OrderDoc>();
  if (!doc) throw AppError.notFound('Order');
  if (doc.uid !== caller.uid && !(adminMaySee && caller.admin)) {
    throw AppError.forbidden('This order belongs to someone else.');
  }
  return doc;
}

/**
 * Cancels the caller's own unpaid order and gives its pieces back. The delete is conditional
 * on `paid: false`, so a payment landing at the same moment wins and the stock stays sold.
 */
export async function cancelOrder(caller: Caller, id: string): Promise<void> {
  const doc = await getOrderFor(caller, id, { adminMaySee: false });
  if (doc.paid) throw AppError.conflict('A paid order cannot be cancelled.');
  const deleted = await OrderModel.findOneAndDelete({
    _id: id,
    uid: caller.uid,
    paid: false,
  }).lean<OrderDoc>();
  if (!deleted) throw AppError.conflict('The order changed meanwhile (paid or already cancelled).');
  await PartModel.updateOne({ _id: deleted.partsId }, { $inc: { availableQty: deleted.qty } });
}

export async function setShippingStatus(id: string, status: ShippingStatus): Promise<Order> {
  const doc = await OrderModel.findOneAndUpdate(
    { _id: id },
    { $set: { status } },
    { new: true },
  ).lean<OrderDoc>();
  if (!doc) throw AppError.notFound('Order');
  return toOrder(doc);
}

/**
 * Marks an order paid exactly once, only if the confirmed amount matches. Returns the order if
 * this call changed it, undefined if it did not (already paid, unknown, or amount mismatch).
 */
export async function markPaid(
  orderId: string,
  amountCents: number,
  transactionId: string,
): Promise<OrderDoc | undefined> {
  const doc = await OrderModel.findOneAndUpdate(
    { _id: orderId, paid: false, priceCents: amountCents },
    { $set: { paid: true, transactionId, paidAt: new Date() } },
    { new: true },
  ).lean<OrderDoc>();
  return doc ?? undefined;
}
