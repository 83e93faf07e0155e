import type { Order } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import type { Logger } from '../lib/logger';
import { toCents, toDollars } from '../lib/money';
import { mailEntry, withMail } from '../mail/outbox-model';
import { getOrderFor } from './access';
import { OrderModel, OrderRefundNoteModel, type OrderDoc } from './model';
import type { OpenPayments } from './payments-port';
import type { OrderRules } from './rules';
import { finishRelease, giveBack, isBusy, noteRelease, withOrderBusy } from './stock';
import { toOrder } from './wire';

/*
 * Money going back to the buyer, whoever started it: the shop (POST /order/:id/refund), Stripe's
 * dashboard (`charge.refunded`) or a lost dispute. A refund is first recorded on the order as
 * `refunding` (amount and idempotency key), then asked of Stripe, then finished in one update that
 * adds it to `refundedCents`, records the event and queues the mail. A crash in between is
 * finished by the recovery pass with the same key, so Stripe refunds once; a `charge.refunded`
 * arriving meanwhile counts the recorded amount as known. An order refunded whole before it
 * shipped gives its pieces back through the release steps of orders/stock.ts.
 */

const usd = (cents: number) => `$${toDollars(cents).toFixed(2)}`;

/** Why the order's money cannot go back now, or undefined. */
export function whyNotRefundable(doc: OrderDoc): string | undefined {
  if (!doc.paid) return 'This order is not paid, so there is nothing to refund: cancel it instead.';
  if (doc.status === 'refunded') return 'This order has already been refunded.';
  if (doc.status === 'disputed')
    return 'The payment of this order is disputed: the card issuer decides about the money until the dispute is closed.';
  if (doc.refunding) return 'A refund of this order is already under way.';
  return undefined;
}

/**
 * POST /order/:id/refund. Its customer: the whole order, while it has not shipped (Cancel and
 * refund). An admin: any paid order, whole or `amountDollars` of what is left.
 */
export async function refundOrder(
  caller: Caller,
  id: string,
  amountDollars: number | undefined,
  payments: OpenPayments,
  rules: OrderRules,
  log: Logger,
): Promise<Order> {
  const doc = await getOrderFor(caller, id);
  if (!caller.admin) {
    if (amountDollars !== undefined) throw AppError.forbidden('Only an admin can refund part of an order.');
    if (doc.paid && doc.status !== 'pending' && doc.status !== 'disputed' && doc.status !== 'refunded') {
      throw AppError.conflict(
        'This order has already shipped, so it can no longer be cancelled and refunded here. Please contact us.',
      );
    }
  }
  const why = whyNotRefundable(doc);
  if (why) throw AppError.conflict(why);
  const before = doc.refundedCents ?? 0;
  const left = (doc.priceCents ?? 0) - before;
  const amountCents = amountDollars === undefined ? left : toCents(amountDollars);
  if (amountCents > left)
    throw AppError.conflict(`At most ${usd(left)} of this order can still be refunded.`);
  // The same refund asked twice (a retry, a double click) has the same key: Stripe refunds once.
  const key = `motoparts-refund-${id}-${before}-${amountCents}`;
  // Marked busy meanwhile, so this process's recovery pass leaves the refund to this request.
  return withOrderBusy(id, () => refundClaimed(doc, amountCents, key, payments, rules, log));
}

async function refundClaimed(
  doc: OrderDoc,
  amountCents: number,
  key: string,
  payments: OpenPayments,
  rules: OrderRules,
  log: Logger,
): Promise<Order> {
  const id = String(doc._id);
  const claimed = await claim(doc, amountCents, key, 'shop');
  if (!claimed) {
    const now = await OrderModel.findById(id).lean<OrderDoc>();
    if (now?.refunding?.key !== key) {
      throw AppError.conflict(
        (now && whyNotRefundable(now)) ?? 'The order changed meanwhile; reload it and try again.',
      );
    }
  }
  const paymentId = doc.transactionId ?? '';
  try {
    await payments.refund({
      paymentId,
      amountCents,
      key,
      orderId: id,
      checkoutId: doc.checkoutId ?? undefined,
    });
  } catch (err) {
    // Refused or unreachable: the order is as it was. A refund Stripe made all the same reaches
    // the order through its `charge.refunded` event.
    await OrderModel.updateOne({ _id: id, 'refunding.key': key }, { $unset: { refunding: 1 } });
    throw err;
  }
  await finishRefund(id, key, log);
  return toOrder((await OrderModel.findById(id).lean<OrderDoc>()) ?? doc, rules);
}

/** Records a refund about to happen; false when the order changed since `doc` was read. */
async function claim(doc: OrderDoc, amountCents: number, key: string, source: 'shop' | 'provider') {
  await noteRefund(String(doc._id));
  const res = await OrderModel.updateOne(
    {
      _id: doc._id,
      paid: true,
      status: doc.status,
      refunding: { $exists: false },
      refundedCents: doc.refundedCents ?? { $exists: false },
    },
    { $set: { refunding: { amountCents, key, source, at: new Date() } } },
  );
  return res.modifiedCount === 1;
}

/**
 * The last step of a recorded refund: the amount is added, the order becomes `refunded` when
 * nothing is left, the event and the mail are written in the same update; an order refunded whole
 * before it shipped then gives its pieces back. Does nothing once done.
 */
export async function finishRefund(id: string, key: string, log?: Logger): Promise<void> {
  const doc = await OrderModel.findById(id).lean<OrderDoc>();
  const refunding = doc?.refunding;
  if (!doc || refunding?.key !== key) return;
  const total = (doc.refundedCents ?? 0) + refunding.amountCents;
  const whole = total >= (doc.priceCents ?? 0);
  const restock = whole && doc.status === 'pending';
  await withOrderBusy(id, async () => {
    if (restock) await noteRelease(id);
    const done = await OrderModel.findOneAndUpdate(
      { _id: id, 'refunding.key': key },
      withMail(
        {
          $set: {
            refundedCents: total,
            ...(whole ? { status: 'refunded' } : {}),
            ...(restock ? { hold: 'releasing', releaseTo: 'refunded' } : {}),
          },
          $unset: { refunding: 1 },
          $push: {
            history: {
              event: whole ? 'refunded' : 'partlyRefunded',
              at: new Date(),
              amountCents: refunding.amountCents,
            },
          },
        },
        [mailEntry('refunded', refunding.amountCents)],
      ),
      { new: true },
    ).lean<OrderDoc>();
    if (done && restock) {
      await giveBack(done);
      await finishRelease(done);
    }
  });
  await OrderRefundNoteModel.deleteOne({ _id: id });
  log?.info(
    { orderId: id, amountCents: refunding.amountCents, whole, source: refunding.source },
    'order refunded',
  );
}

/**
 * `charge.refunded`: Stripe says `refundedCents` in all went back of payment `paymentId`. What the
 * orders of that payment already know (recorded and under way) is the shop's own; the rest was
 * refunded in Stripe's dashboard and is given to the orders in turn (a checkout's lines oldest
 * first), each recorded like the shop's refunds. Cumulative, so a repeat changes nothing.
 */
export async function recordProviderRefund(
  paymentId: string,
  refundedCents: number,
  log: Logger,
): Promise<void> {
  const orders = await OrderModel.find({ transactionId: paymentId, paid: true })
    .sort({ _id: 1 })
    .lean<OrderDoc[]>();
  const known = orders.reduce((sum, o) => sum + (o.refundedCents ?? 0) + (o.refunding?.amountCents ?? 0), 0);
  let extra = refundedCents - known;
  for (const order of orders) {
    if (extra <= 0) break;
    if (order.refunding || order.status === 'disputed') continue;
    const room = (order.priceCents ?? 0) - (order.refundedCents ?? 0);
    if (room <= 0) continue;
    const amountCents = Math.min(room, extra);
    const key = `stripe-${paymentId}-${String(order._id)}-${order.refundedCents ?? 0}-${amountCents}`;
    if (await claim(order, amountCents, key, 'provider')) {
      await finishRefund(String(order._id), key, log);
      extra -= amountCents;
    }
  }
  if (extra > 0) log.warn({ paymentId, extra }, 'a refund at Stripe found no order to record it on');
}

/** Notes a refund about to be recorded, so a crash is found from the notes alone. */
async function noteRefund(orderId: string): Promise<void> {
  try {
    await OrderRefundNoteModel.create({ _id: orderId, at: new Date() });
  } catch (err) {
    // Noted already (a retried refund): one note is enough.
    if ((err as { code?: unknown }).code !== 11000) throw err;
  }
}

/**
 * Finishes the refunds a crash or an outage left recorded but not done (the recovery pass), from
 * the notes older than `cutoff`; a note whose order has no refund in flight is dropped. Returns how
 * many were finished.
 */
export async function recoverRefunds(payments: OpenPayments, cutoff: Date, log: Logger): Promise<number> {
  let finished = 0;
  for (const note of await OrderRefundNoteModel.find({ at: { $lt: cutoff } }).lean()) {
    const id = note._id;
    if (isBusy(id)) continue;
    const doc = await OrderModel.findById(id).lean<OrderDoc>();
    const refunding = doc?.refunding;
    if (!doc || !refunding) {
      await OrderRefundNoteModel.deleteOne({ _id: id, at: note.at });
      continue;
    }
    if (refunding.source === 'shop') {
      await payments.refund({
        paymentId: doc.transactionId ?? '',
        amountCents: refunding.amountCents,
        key: refunding.key,
        orderId: id,
        checkoutId: doc.checkoutId ?? undefined,
      });
    }
    await finishRefund(id, refunding.key, log);
    finished += 1;
  }
  return finished;
}

/** `charge.dispute.created`: the orders of that payment are disputed and do not ship. */
export async function openDispute(paymentId: string): Promise<void> {
  const orders = await OrderModel.find({ transactionId: paymentId, paid: true }).lean<OrderDoc[]>();
  for (const order of orders) {
    if (order.status === 'refunded' || order.status === 'disputed') continue;
    await OrderModel.updateOne(
      { _id: order._id, status: order.status },
      {
        $set: { status: 'disputed', statusBeforeDispute: order.status },
        $push: { history: { event: 'disputed', at: new Date() } },
      },
    );
  }
}

/**
 * `charge.dispute.closed`: won, the orders are as before the dispute; lost, the bank gave the money
 * back, so they are refunded (their pieces do not come back: they may be with the buyer).
 */
export async function closeDispute(paymentId: string, won: boolean): Promise<void> {
  const orders = await OrderModel.find({ transactionId: paymentId, status: 'disputed' }).lean<OrderDoc[]>();
  for (const order of orders) {
    await OrderModel.updateOne(
      { _id: order._id, status: 'disputed' },
      won
        ? {
            $set: { status: order.statusBeforeDispute ?? 'pending' },
            $unset: { statusBeforeDispute: 1 },
            $push: { history: { event: 'disputeWon', at: new Date() } },
          }
        : {
            $set: { status: 'refunded', refundedCents: order.priceCents ?? 0 },
            $unset: { statusBeforeDispute: 1 },
            $push: { history: { event: 'disputeLost', at: new Date(), amountCents: order.priceCents ?? 0 } },
          },
    );
  }
}
