import { ADMIN_CANNOT_ORDER, type Order, type OrderInput, type ShippingStatus } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import { toDollars } from '../lib/money';
import { Types } from 'mongoose';
import type { Env } from '../lib/env';
import { PartModel, type PartDoc } from '../parts/model';
import { openSlots } from './open-slots';
import {
  addLegacyOrderIds,
  DataChangeModel,
  LegacyOrdersModel,
  isListed,
  OrderModel,
  type OrderDoc,
  type OrderRow,
} from './model';
import { forgetMarks, plusMark, releaseOrder, takeStock, undoTake, withOrderBusy } from './stock';

export function toOrder(doc: OrderRow, rules?: Pick<OrderRules, 'holdMs'>): Order {
  const expiresAt =
    rules && doc.createdAt != null && !doc.paid && doc.status === 'pending'
      ? new Date(new Date(doc.createdAt).getTime() + rules.holdMs).toISOString()
      : undefined;
  return {
    _id: String(doc._id),
    partsId: String(doc.partsId),
    Parts: doc.Parts ?? '',
    user: doc.user,
    userName: doc.userName ?? '',
    qty: doc.qty,
    price: toDollars(doc.priceCents ?? 0),
    paid: doc.paid,
    ...(doc.transactionId ? { transactionId: doc.transactionId } : {}),
    status: doc.status,
    ...(doc.createdAt != null ? { createdAt: new Date(doc.createdAt).toISOString() } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** What the order rules need from the environment. */
export interface OrderRules {
  /** How long an unpaid order holds its stock. */
  holdMs: number;
  /** Open orders per customer; 0 = no cap. */
  maxOpen: number;
}

export function orderRules(env: Pick<Env, 'ORDER_HOLD_MINUTES' | 'MAX_OPEN_ORDERS'>): OrderRules {
  return {
    holdMs: Math.round(env.ORDER_HOLD_MINUTES * 60_000),
    maxOpen: env.MAX_OPEN_ORDERS,
  };
}

export const openOrdersCapMessage = (cap: number) =>
  `You already have ${cap} unpaid orders. Pay or cancel one of them in My Order before placing another.`;

/**
 * Places an order. The server is the authority: the caller is the buyer, admins cannot buy, the
 * price comes from the part in integer cents, and stock is taken by one conditional update
 * (`availableQty >= qty` and `qty >= minimum` checked by the database in the same operation).
 * Crash safety: the part's update records the order id in its journal in the same step that
 * takes the stock, and only then is the order written (orders/stock.ts). `orderId` lets an
 * Idempotency-Key retry reuse the id the first attempt chose.
 */
export async function placeOrder(
  caller: Caller,
  input: OrderInput,
  rules: OrderRules,
  orderId: string = new Types.ObjectId().toHexString(),
): Promise<Order> {
  if (input.user !== undefined && input.user !== caller.email) {
    throw AppError.forbidden('You can only order for yourself.');
  }
  if (caller.admin) throw AppError.forbidden(ADMIN_CANNOT_ORDER);

  const slots = openSlots();
  return withOrderBusy(orderId, async () => {
    if (!(await slots.claim(caller.uid, orderId, rules.maxOpen))) {
      throw AppError.conflict(openOrdersCapMessage(rules.maxOpen), { maxOpenOrders: rules.maxOpen });
    }
    let placed = false;
    try {
      const order = await reserveAndWrite(caller, input, orderId, rules);
      placed = true;
      return order;
    } finally {
      await slots.settle(caller.uid, orderId, placed, rules.maxOpen);
    }
  });
}

/** The two placing steps: take the stock (recording `+id` on the part), then write the order. */
async function reserveAndWrite(
  caller: Caller,
  input: OrderInput,
  orderId: string,
  rules: OrderRules,
): Promise<Order> {
  const mark = plusMark(orderId, input.qty);
  let part = await takeStock({ _id: orderId, partsId: input.partsId, qty: input.qty });
  // Taken now, as opposed to by an earlier attempt under the same id (an Idempotency-Key retry
  // after a crash between the steps), whose `+id` is still on the part and counts as taken.
  const tookNow = part !== null;
  if (!part) {
    const earlier = await PartModel.findById(input.partsId).lean<PartDoc>();
    if (!earlier?.journal?.includes(mark)) throw refusal(input, earlier);
    part = earlier;
  }
  const userName = (input.userName?.trim() || caller.name).slice(0, 120);
  try {
    // Name and price come from the part's own update (the authority), so placing costs no read.
    const doc = await OrderModel.create({
      _id: orderId,
      partsId: input.partsId,
      uid: caller.uid,
      user: caller.email,
      userName,
      qty: input.qty,
      Parts: part.name,
      unitPriceCents: part.priceCents,
      priceCents: part.priceCents * input.qty,
      paid: false,
      status: 'pending',
      hold: 'held',
    });
    forgetMarks(String(part._id), [mark]);
    return toOrder(doc.toObject(), rules);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 11000) throw err;
    // The id is taken: by this order, placed by an earlier attempt (then that is the answer), or
    // by the tombstone of a recovery pass that gave an earlier attempt's pieces back.
    if (tookNow) await undoTake({ _id: orderId, partsId: input.partsId, qty: input.qty });
    const existing = await OrderModel.findById(orderId).lean<OrderDoc>();
    if (existing && existing.hold !== 'void' && existing.uid === caller.uid) return toOrder(existing, rules);
    throw AppError.unavailable('The order could not be completed. Please try again.');
  }
}

/** Why the conditional update took nothing: unknown part, below the minimum, or not enough stock. */
function refusal(input: OrderInput, part: PartDoc | null): AppError {
  if (!part) return AppError.notFound('Part');
  if (input.qty < part.qty) {
    return AppError.badRequest(`Minimum purchase quantity is ${part.qty}`, [
      { path: 'qty', message: `must be at least ${part.qty}` },
    ]);
  }
  return AppError.conflict(`Not enough stock: ${part.availableQty} pieces available.`, {
    availableQty: part.availableQty,
  });
}

const isVisible = (doc: OrderDoc) => isListed(doc.hold);

const LEGACY_LISTS = 'legacy-order-lists';
let listsReady: Promise<void> | undefined;

/**
 * Fills, once per database, the list that stands in for a filter the embedded FerretDB cannot
 * answer without reading every order: the email-keyed era's unclaimed orders by address (the
 * first verified sign-in of that address claims them). Until it is done no list is read.
 */
export function orderListsReady(): Promise<void> {
  listsReady ??= (async () => {
    if (await DataChangeModel.exists({ _id: LEGACY_LISTS })) return;
    const byEmail = new Map<string, string[]>();
    const orders = await OrderModel.find({}, { uid: 1, user: 1 }).lean<
      Pick<OrderDoc, '_id' | 'uid' | 'user'>[]
    >();
    for (const o of orders) {
      if (o.uid) continue;
      const ids = byEmail.get(o.user) ?? [];
      ids.push(String(o._id));
      byEmail.set(o.user, ids);
    }
    for (const [email, ids] of byEmail) await addLegacyOrderIds(email, ids);
    await DataChangeModel.updateOne({ _id: LEGACY_LISTS }, { doneAt: new Date() }, { upsert: true });
  })().catch((err: unknown) => {
    listsReady = undefined; // try again on the next read
    throw err;
  });
  return listsReady;
}

/**
 * Gives the orders placed under `email` before accounts were keyed by uid to the account `uid`
 * (its first sign-in with that address verified). On the embedded database the orders come from
 * the address's legacy list, deleted last: a crash before leaves the claim to the next sign-in,
 * which repeats every step harmlessly (each update skips orders that have a uid). Elsewhere the
 * `user` index finds them. The update names many orders, so the in-memory timeline reads the
 * orders again and lists them as the customer's from then on.
 */
export async function claimLegacyOrders(uid: string, email: string, embedded: boolean): Promise<void> {
  let ids: string[];
  if (embedded) {
    await orderListsReady();
    ids = (await LegacyOrdersModel.findById(email).lean())?.ids ?? [];
  } else {
    const docs = await OrderModel.find({ user: email, uid: { $exists: false } }, { _id: 1 }).lean();
    ids = docs.map((o) => String(o._id));
  }
  // At most 500 ids a read: the embedded FerretDB answers those from its `_id` index.
  for (let i = 0; i < ids.length; i += 500) {
    await OrderModel.updateMany(
      { _id: { $in: ids.slice(i, i + 500) }, uid: { $exists: false } },
      { $set: { uid } },
    );
  }
  if (embedded) await LegacyOrdersModel.deleteOne({ _id: email });
}

/**
 * GET /order/:id's answer: from the read model's row where it keeps the order in memory, else
 * from the database; the same checks.
 */
export async function orderAnswerFor(
  caller: Caller,
  id: string,
  rules: OrderRules,
  row: OrderRow | undefined,
): Promise<Order> {
  if (!row) return toOrder(await getOrderFor(caller, id), rules);
  if (row.uid !== caller.uid && !caller.admin)
    throw AppError.forbidden('This order belongs to someone else.');
  return toOrder(row, rules);
}

/** Loads an order the caller may see: their own, or any order for an admin. */
export async function getOrderFor(
  caller: Caller,
  id: string,
  { adminMaySee = true } = {},
): Promise<OrderDoc> {
  const doc = await OrderModel.findById(id).lean<OrderDoc>();
  if (!doc || !isVisible(doc)) throw AppError.notFound('Order');
  if (doc.uid !== caller.uid && !(adminMaySee && caller.admin)) {
    throw AppError.forbidden('This order belongs to someone else.');
  }
  return doc;
}

/** Why an order cannot be cancelled, or undefined if it can. */
export function whyNotCancellable(doc: OrderDoc): string | undefined {
  if (doc.status === 'shipped') return 'This order has already shipped and can no longer be cancelled.';
  if (doc.paid) return 'A paid order cannot be cancelled.';
  if (doc.status === 'expired' || doc.hold === 'released')
    return 'This order has expired: its pieces are back in stock and there is nothing to cancel.';
  if (doc.hold === 'releasing') return 'This order is already being cancelled.';
  return undefined;
}

/**
 * Cancels the caller's own unpaid order and gives its pieces back (orders/stock.ts). An open
 * PaymentIntent is cancelled at Stripe first (payments/service.ts); if it had already succeeded
 * the order is marked paid and stays. The claim is conditional on `paid: false` and
 * `status: 'pending'`, so a payment or a shipment landing at the same moment wins.
 */
export async function cancelOrder(
  caller: Caller,
  id: string,
  settleIntent: (doc: OrderDoc) => Promise<'paid' | 'open'>,
): Promise<void> {
  const doc = await getOrderFor(caller, id, { adminMaySee: false });
  const why = whyNotCancellable(doc);
  if (why) throw AppError.conflict(why);
  if ((await settleIntent(doc)) === 'paid') {
    throw AppError.conflict('This order was paid meanwhile, so it stays and will be shipped.');
  }
  if (!(await releaseOrder(id, 'cancelled', { uid: caller.uid }))) {
    const now = await OrderModel.findById(id).lean<OrderDoc>();
    throw AppError.conflict(
      (now && whyNotCancellable(now)) ?? 'The order changed meanwhile (paid, shipped or already cancelled).',
    );
  }
}

/** Admin: pending ↔ shipped. Expired or half-placed orders are not shipped (409). */
export async function setShippingStatus(
  id: string,
  status: ShippingStatus,
  rules: OrderRules,
): Promise<Order> {
  const doc = await OrderModel.findOneAndUpdate(
    {
      _id: id,
      status: { $in: ['pending', 'shipped'] },
      hold: { $nin: ['reserving', 'releasing', 'released'] },
    },
    { $set: { status } },
    { new: true },
  ).lean<OrderDoc>();
  if (doc) {
    if (status === 'shipped') await openSlots().release(doc.uid ?? doc.user, id);
    return toOrder(doc, rules);
  }
  const exists = await OrderModel.findById(id, { status: 1, hold: 1 }).lean<OrderDoc>();
  if (!exists || exists.hold === 'void') throw AppError.notFound('Order');
  throw AppError.conflict('This order has expired or is being cancelled; it cannot be shipped.');
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
    {
      _id: orderId,
      paid: false,
      priceCents: amountCents,
      status: { $ne: 'expired' },
      hold: { $nin: ['reserving', 'releasing', 'released'] },
    },
    { $set: { paid: true, transactionId, paidAt: new Date() } },
    { new: true },
  ).lean<OrderDoc>();
  if (doc) await openSlots().release(doc.uid ?? doc.user, orderId);
  return doc ?? undefined;
}
