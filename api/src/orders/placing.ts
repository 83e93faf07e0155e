import { mailEntry, mailFields } from '../mail/outbox-model';
import { ADMIN_CANNOT_ORDER, type Order, unitPriceCentsOf } from '@motoparts/contracts';
import { Types } from 'mongoose';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import { PartModel, type PartDoc } from '../parts/model';
import { OrderModel, type OrderDoc } from './model';
import { openSlots } from './open-slots';
import { capRefusal, holdCapOf, type OrderRules } from './rules';
import { forgetMarks, plusMark, takeStock, undoTake, withOrderBusy } from './stock';
import { toOrder, type OrderRequest } from './wire';

/**
 * Places an order. The server is the authority: the caller is the buyer, admins cannot buy, the
 * price comes from the part in integer cents, and stock is taken by one conditional update
 * (`availableQty >= quantity` and `quantity >= minOrderQty` checked by the database in the same operation).
 * Crash safety: the part's update records the order id in its journal in the same step that
 * takes the stock, and only then is the order written (orders/stock.ts). `orderId` lets an
 * Idempotency-Key retry reuse the id the first attempt chose.
 */
export async function placeOrder(
  caller: Caller,
  input: OrderRequest,
  rules: OrderRules,
  orderId: string = new Types.ObjectId().toHexString(),
): Promise<Order> {
  if (input.user !== undefined && input.user !== caller.email) {
    throw AppError.forbidden('You can only order for yourself.');
  }
  if (caller.admin) throw AppError.forbidden(ADMIN_CANNOT_ORDER);

  const slots = openSlots();
  const cap = holdCapOf(caller, rules);
  return withOrderBusy(orderId, async () => {
    if (!(await slots.claim(caller.uid, orderId, cap))) {
      const { message, details } = capRefusal(caller, rules);
      throw AppError.conflict(message, details);
    }
    let placed = false;
    try {
      const order = await reserveAndWrite(caller, input, orderId, rules);
      placed = true;
      return order;
    } finally {
      await slots.settle(caller.uid, orderId, placed, cap);
    }
  });
}

/** The two placing steps: take the stock (recording `+id` on the part), then write the order. */
async function reserveAndWrite(
  caller: Caller,
  input: OrderRequest,
  orderId: string,
  rules: OrderRules,
): Promise<Order> {
  const mark = plusMark(orderId, input.quantity);
  let part = await takeStock({ _id: orderId, partId: input.partId, quantity: input.quantity });
  // Taken now, as opposed to by an earlier attempt under the same id (an Idempotency-Key retry
  // after a crash between the steps), whose `+id` is still on the part and counts as taken.
  const tookNow = part !== null;
  if (!part) {
    const earlier = await PartModel.findById(input.partId).lean<PartDoc>();
    // An archived part (deleted while orders pointed at it) takes no new orders.
    if (!earlier?.journal?.includes(mark)) throw refusal(input, earlier?.archived ? null : earlier);
    part = earlier;
  }
  const userName = (input.userName?.trim() || caller.name).slice(0, 120);
  // The quantity's tier price, from the same answer: the one pricing rule (contracts/src/pricing.ts).
  const unitPriceCents = unitPriceCentsOf(part, input.quantity);
  try {
    // Name and price come from the part's own update (the authority), so placing costs no read.
    const doc = await OrderModel.create({
      _id: orderId,
      partId: input.partId,
      uid: caller.uid,
      user: caller.email,
      userName,
      quantity: input.quantity,
      partName: part.name,
      unitPriceCents,
      priceCents: unitPriceCents * input.quantity,
      paid: false,
      status: 'pending',
      hold: 'held',
      ...mailFields([mailEntry('placed')]),
    });
    forgetMarks(String(part._id), [mark]);
    return toOrder(doc.toObject(), rules);
  } catch (err) {
    if ((err as { code?: unknown }).code !== 11000) throw err;
    // The id is taken: by this order, placed by an earlier attempt (then that is the answer), or
    // by the tombstone of a recovery pass that gave an earlier attempt's pieces back.
    if (tookNow) await undoTake({ _id: orderId, partId: input.partId, quantity: input.quantity });
    const existing = await OrderModel.findById(orderId).lean<OrderDoc>();
    if (existing && existing.hold !== 'void' && existing.uid === caller.uid) return toOrder(existing, rules);
    throw AppError.unavailable('The order could not be completed. Please try again.');
  }
}

/** Why the conditional update took nothing: unknown part, below the minimum, or not enough stock. */
function refusal(input: OrderRequest, part: PartDoc | null): AppError {
  if (!part) return AppError.notFound('Part');
  if (input.quantity < part.minOrderQty) {
    return AppError.badRequest(`Minimum purchase quantity is ${part.minOrderQty}`, [
      { path: 'qty', message: `must be at least ${part.minOrderQty}` },
    ]);
  }
  return AppError.conflict(`Not enough stock: ${part.availableQty} pieces available.`, {
    availableQty: part.availableQty,
  });
}
