import type { Order, ShippingStatus } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import { getOrderFor } from './access';
import { OrderModel, type OrderDoc } from './model';
import { openSlots } from './open-slots';
import type { OrderRules } from './rules';
import { releaseOrder } from './stock';
import { toOrder } from './wire';

/*
 * An order's states and the moves between them, each one conditional update so that two moves
 * racing on one order cannot both happen:
 *
 *   placed (unpaid, pending, hold `held`)          orders/placing.ts
 *     → paid                  markPaid             (Stripe's word: payments/service.ts)
 *     → shipped / pending     setShippingStatus    (admin; not while a release holds it)
 *     → cancelled (deleted)   cancelOrder          (its customer, unpaid and not shipped)
 *     → expired               the expiry pass      (orders/jobs.ts, unpaid past its hold)
 *
 * Cancelling and expiring give the pieces back through the stock protocol (orders/stock.ts).
 */

/** Why an order cannot be cancelled, or undefined if it can. */
export function whyNotCancellable(doc: OrderDoc): string | undefined {
  if (doc.checkoutId) {
    return `This order is a line of checkout ${doc.checkoutId}: cancel the checkout in My Order.`;
  }
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
