import type { FulfilmentStatus, Order, ShippingStatusInput } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import { getOrderFor } from './access';
import { mailEntry, queued, withMail } from '../mail/outbox-model';
import { Types, type mongo } from 'mongoose';
import { announce, isListed, OrderModel, type OrderDoc } from './model';
import { openSlots } from './open-slots';
import type { OrderRules } from './rules';
import { releaseOrder, stockInFlight } from './stock';
import { toOrder } from './wire';

/*
 * An order's states and the moves between them, each one conditional update so that two moves
 * racing on one order cannot both happen. `status` is where the goods stand, `paid` whether the
 * money came:
 *
 *   placed: unpaid, pending (hold `held`)            orders/placing.ts
 *     → paid                  markPaid                (Stripe's word: payments/service.ts)
 *     → cancelled (deleted)   cancelOrder             (its customer, unpaid)
 *     → expired               the expiry pass         (orders/jobs.ts, unpaid past its hold)
 *   paid, pending
 *     → shipped               setFulfilment           (admin; paid and undisputed only)
 *     → refunded              orders/refunds.ts       (pieces back to stock)
 *   shipped → pending (taken back), → delivered, → refunded (no pieces back)
 *   delivered → refunded
 *   paid, any of those → disputed → back (won) or refunded (lost)    payments/events.ts
 *
 * Cancelling, expiring and refunding an unshipped order give the pieces back through the stock
 * protocol (orders/stock.ts). Each move that a buyer hears of queues its mail in the same update
 * (mail/outbox-model.ts) and records an event in the order's history.
 */

/** Why an order cannot be cancelled, or undefined if it can. */
export function whyNotCancellable(doc: OrderDoc): string | undefined {
  if (doc.checkoutId) {
    return `This order is a line of checkout ${doc.checkoutId}: cancel the checkout in My Order.`;
  }
  if (doc.status === 'shipped' || doc.status === 'delivered')
    return 'This order has already shipped and can no longer be cancelled.';
  if (doc.paid) return 'A paid order cannot be cancelled; use Cancel and refund while it has not shipped.';
  if (doc.status === 'expired' || doc.hold === 'released')
    return 'This order has expired: its pieces are back in stock and there is nothing to cancel.';
  if (doc.hold === 'releasing') return 'This order is already being cancelled.';
  return undefined;
}

/**
 * Cancels an unpaid order, the caller's own or (an admin releasing the pieces it holds, from the
 * Overview) anyone's, and gives its pieces back (orders/stock.ts). An open PaymentIntent is
 * cancelled at Stripe first (payments/service.ts); if it had already succeeded the order is marked
 * paid and stays. The claim is conditional on `paid: false` and `status: 'pending'`, so a payment
 * or a shipment landing at the same moment wins.
 */
export async function cancelOrder(
  caller: Caller,
  id: string,
  settleIntent: (doc: OrderDoc) => Promise<'paid' | 'open'>,
): Promise<void> {
  const doc = await getOrderFor(caller, id);
  const why = whyNotCancellable(doc);
  if (why) throw AppError.conflict(why);
  if ((await settleIntent(doc)) === 'paid') {
    throw AppError.conflict('This order was paid meanwhile, so it stays and will be shipped.');
  }
  if (!(await releaseOrder(id, 'cancelled', caller.admin ? {} : { uid: caller.uid }))) {
    const now = await OrderModel.findById(id).lean<OrderDoc>();
    throw AppError.conflict(
      (now && whyNotCancellable(now)) ?? 'The order changed meanwhile (paid, shipped or already cancelled).',
    );
  }
}

/** Why an order cannot move to `to`, from the order as it is now. */
function whyNotTo(doc: OrderDoc, to: FulfilmentStatus): string {
  if (doc.status === 'refunded') return 'This order was refunded; it does not ship.';
  if (doc.status === 'expired' || doc.hold === 'released' || doc.hold === 'releasing')
    return 'This order has expired or is being cancelled; it cannot be shipped.';
  if (doc.status === 'disputed')
    return 'The payment of this order is disputed; it cannot ship until the dispute is closed.';
  if (!doc.paid) return 'This order is not paid yet; only paid orders ship.';
  if (doc.refunding) return 'A refund of this order is under way; try again in a moment.';
  if (doc.status === 'delivered') return 'This order was delivered; its shipment can no longer change.';
  if (to === 'delivered') return 'Only a shipped order can be delivered.';
  return 'The order changed meanwhile; reload it and try again.';
}

/** A shipment's note in the history: its carrier and tracking number. */
const shipmentNote = (input: ShippingStatusInput) =>
  [input.carrier, input.trackingNumber].filter(Boolean).join(' ') || undefined;

/**
 * Admin: pending → shipped (paid, undisputed orders only, with an optional carrier and tracking
 * number), shipped → pending (taken back before delivery), shipped → delivered. Setting the
 * status an order already has changes nothing (a shipped order takes a new tracking number). A
 * move that is not allowed is a 409 saying why.
 */
export async function setFulfilment(
  id: string,
  input: ShippingStatusInput,
  rules: OrderRules,
): Promise<Order> {
  const now = new Date();
  const settled = {
    paid: true,
    refunding: { $exists: false },
    hold: { $nin: ['reserving', 'releasing', 'released'] },
  };
  const moves: Record<
    FulfilmentStatus,
    { filter: Record<string, unknown>; update: Record<string, unknown> }
  > = {
    shipped: {
      filter: { status: 'pending', ...settled },
      update: withMail(
        {
          $set: {
            status: 'shipped',
            ...(input.carrier ? { carrier: input.carrier } : {}),
            ...(input.trackingNumber ? { trackingNumber: input.trackingNumber } : {}),
          },
          $push: { history: { event: 'shipped', at: now, note: shipmentNote(input) } },
        },
        [mailEntry('shipped')],
      ),
    },
    pending: {
      filter: { status: 'shipped' },
      update: {
        $set: { status: 'pending' },
        $unset: { carrier: 1, trackingNumber: 1 },
        $push: { history: { event: 'unshipped', at: now } },
      },
    },
    delivered: {
      filter: { status: 'shipped' },
      update: withMail(
        { $set: { status: 'delivered' }, $push: { history: { event: 'delivered', at: now } } },
        [mailEntry('delivered')],
      ),
    },
  };
  const move = moves[input.status];
  const doc = await OrderModel.findOneAndUpdate({ _id: id, ...move.filter }, move.update, {
    new: true,
  }).lean<OrderDoc>();
  if (doc) return toOrder(doc, rules);
  const current = await OrderModel.findById(id).lean<OrderDoc>();
  if (!current || !isListed(current.hold)) throw AppError.notFound('Order');
  const settling = current.hold === 'releasing' || current.hold === 'released';
  if (current.status === input.status && !settling) {
    // Already there: nothing moves, though a shipment may get its carrier or tracking number.
    if (input.status !== 'shipped' || !(input.carrier || input.trackingNumber))
      return toOrder(current, rules);
    const updated = await OrderModel.findOneAndUpdate(
      { _id: id, status: 'shipped' },
      {
        $set: {
          ...(input.carrier ? { carrier: input.carrier } : {}),
          ...(input.trackingNumber ? { trackingNumber: input.trackingNumber } : {}),
        },
      },
      { new: true },
    ).lean<OrderDoc>();
    if (updated) return toOrder(updated, rules);
  }
  throw AppError.conflict(whyNotTo(current, input.status));
}

/**
 * Marks an order paid exactly once, only if the confirmed amount matches. True if this call
 * changed it, false if it did not (already paid, unknown, released or amount mismatch).
 */
export async function markPaid(
  orderId: string,
  amountCents: number,
  transactionId: string,
  /** The Stripe event that said so, kept with the payment (payments/service.ts). */
  eventId?: string,
): Promise<boolean> {
  if (!Types.ObjectId.isValid(orderId)) return false;
  // Every payment comes this way, so it goes through the driver as one update with no document
  // back: Mongoose would cast an update that is already in stored form and run its hooks (which
  // are told here), and no caller needs the order read back with its history and outbox (its
  // decoding and garbage were the webhook's to pay).
  const now = new Date();
  let modified: number;
  try {
    ({ modifiedCount: modified } = await orderDocs().updateOne(
      {
        _id: new Types.ObjectId(orderId),
        paid: false,
        priceCents: amountCents,
        status: { $ne: 'expired' },
        hold: { $nin: ['reserving', 'releasing', 'released'] },
      },
      withMail(
        {
          $set: {
            paid: true,
            transactionId,
            paidAt: now,
            updatedAt: now,
            ...(eventId ? { paidEventId: eventId } : {}),
          },
        },
        [mailEntry('paid')],
      ),
    ));
  } catch (err) {
    // It may have been applied all the same (a timeout after the server wrote it).
    announce({ kind: 'unknown' });
    throw err;
  }
  if (modified === 0) return false;
  announce({ kind: 'updated', id: orderId });
  queued('orders', orderId);
  await openSlots().release(orderId);
  return true;
}

/** The orders collection as a payment writes it: through the driver, in stored form. */
const orderDocs = () => OrderModel.collection as unknown as mongo.Collection<OrderDoc>;

/**
 * The states in which an order may still move stock or need its part: held or paid and not yet
 * shipped (pieces may come back), shipped (may be taken back), disputed (may be won back).
 */
const OPEN_STATUSES = ['pending', 'shipped', 'disputed'] as const satisfies readonly OrderDoc['status'][];

/**
 * Whether any order of this part is still open, or is being placed (its pieces taken, the order
 * not written yet): such a part is archived, not removed. The orders are read first, so an order
 * that finishes placing in between is found by the journal, and one that was released in between
 * has `-id` beside its `+id` there.
 */
export async function partHasOpenOrders(partId: string): Promise<boolean> {
  if (await OrderModel.exists({ partId, status: { $in: OPEN_STATUSES } })) return true;
  return stockInFlight(partId);
}
