import { LRUCache } from 'lru-cache';
import Stripe from 'stripe';
import { objectIdSchema, type OrderPaymentResult, type PaymentIntent } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import type { Logger } from '../lib/logger';
import { OrderModel, type OrderDoc } from '../orders/model';
import { getOrderFor } from '../orders/access';
import { markPaid } from '../orders/lifecycle';
import { closeDispute, openDispute, recordProviderRefund } from '../orders/refunds';
import { cacheBytes } from '../lib/cache-budget';
import { StripeEventModel } from './model';
import type { OrderRules } from '../orders/rules';
import { toOrder } from '../orders/wire';
import type { OpenPayments } from '../orders/payments-port';
import { releaseOrder } from '../orders/stock';
import { payCheckout, settleCheckoutIntent } from './checkout-payments';
import { cancelOrRetrieve, providerError, refundPayment, refundStray } from './refunds';

/**
 * Creates (or, thanks to the per-order idempotency key, re-obtains) the PaymentIntent for the
 * caller's own unpaid order. The amount is the stored order price in cents; a client-sent price
 * is never used.
 */
export async function createPaymentIntent(
  stripe: Stripe,
  caller: Caller,
  orderId: string,
  rules: OrderRules,
): Promise<PaymentIntent> {
  const order = await getOrderFor(caller, orderId, { adminMaySee: false });
  if (order.checkoutId) throw AppError.conflict(lineOfCheckout(order.checkoutId));
  if (order.paid) throw AppError.conflict('This order is already paid.');
  if (order.status === 'expired' || order.hold === 'released' || order.hold === 'releasing') {
    throw AppError.conflict(EXPIRED);
  }
  if (order.status === 'pending' && isPastHold(order, rules)) {
    // The expiry timer has not reached it yet: expire it now rather than take a late payment.
    await releaseOrder(orderId, 'expired');
    throw AppError.conflict(EXPIRED);
  }
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: order.priceCents ?? 0,
        currency: 'usd',
        description: `MotoParts order ${orderId}: ${order.quantity} × ${order.partName}`,
        metadata: { orderId, user: order.user },
        receipt_email: order.user,
      },
      // Same order and amount → same intent, however often the payment page reloads.
      { idempotencyKey: `motoparts-order-${orderId}-${order.priceCents ?? 0}` },
    );
  } catch (err) {
    throw providerError(err);
  }
  if (!intent.client_secret) throw providerError(new Error('no client secret in the answer'));
  await OrderModel.updateOne(
    { _id: orderId },
    { $set: { paymentIntentId: intent.id, paymentIntentAmount: intent.amount } },
  );
  return { clientSecret: intent.client_secret };
}

const EXPIRED =
  'This order has expired: its pieces went back to stock and it can no longer be paid. Please place a new order.';

function isPastHold(order: OrderDoc, rules: OrderRules): boolean {
  return order.createdAt !== undefined && new Date(order.createdAt).getTime() + rules.holdMs <= Date.now();
}

/**
 * Before an unpaid order is cancelled or expired, its open PaymentIntent is cancelled at Stripe,
 * so the customer cannot pay for pieces that went back to stock. If Stripe says the payment
 * already succeeded, the order is marked paid instead and stays ('paid').
 */
async function settleIntent(stripe: Stripe, order: OrderDoc, log: Logger): Promise<'paid' | 'open'> {
  const intentId = order.paymentIntentId;
  if (!intentId) return 'open';
  const intent = await cancelOrRetrieve(stripe, intentId);
  if (intent.status !== 'succeeded') return 'open';
  const orderId = String(order._id);
  if (await markPaid(orderId, intent.amount, intent.id)) return 'paid';
  const now = await OrderModel.findById(orderId, { paid: 1, transactionId: 1 }).lean<OrderDoc>();
  if (now?.paid && now.transactionId === intent.id) return 'paid';
  await refundStray(stripe, intent, orderId, 'succeeded for an order it does not match', log);
  return 'open';
}

/** The orders' view of the payments (orders/payments-port.ts): Stripe's PaymentIntents. */
export function stripePayments(stripe: Stripe): OpenPayments {
  return {
    settle: (order, log) => settleIntent(stripe, order, log),
    settleCheckout: (checkout, log) => settleCheckoutIntent(stripe, checkout, log),
    statusOf: async (paymentId) => {
      try {
        return (await stripe.paymentIntents.retrieve(paymentId)).status;
      } catch (err) {
        throw providerError(err);
      }
    },
    refund: (request) => refundPayment(stripe, request),
  };
}

/** Why a succeeded intent could not mark its order paid, or undefined when it already did. */
async function strayReason(orderId: string, intent: Stripe.PaymentIntent): Promise<string | undefined> {
  const order = await OrderModel.findById(orderId).lean<OrderDoc>();
  if (!order || order.hold === 'void') return 'for an order that does not exist (cancelled)';
  if (order.paid)
    return order.transactionId === intent.id ? undefined : 'for an order already paid by another payment';
  if (order.status === 'expired' || order.hold === 'released' || order.hold === 'releasing')
    return 'for an order that expired or was cancelled';
  if (order.priceCents !== intent.amount)
    return `of ${intent.amount} cents for an order of ${order.priceCents} cents`;
  if (order.hold === 'reserving') return 'for an order that was never completed';
  return 'that could not be applied to its order';
}

/** What the single-order paths answer for a line of a checkout, which is paid with it. */
export const lineOfCheckout = (checkoutId: string) =>
  `This order is a line of checkout ${checkoutId}: it is paid or cancelled with the checkout.`;

const NOT_CONFIRMED =
  'Stripe has not confirmed this payment, so the order stays unpaid. It is marked paid as soon as Stripe confirms it.';

const FOREIGN_PAYMENT = 'This payment was not started for this order. Pay it from the order’s payment page.';

/**
 * PATCH /order/:id — the client reports a transaction id. We never take its word: the order is
 * paid only if Stripe says that PaymentIntent succeeded for this order and amount.
 */
export async function claimPayment(
  stripe: Stripe,
  caller: Caller,
  orderId: string,
  transactionId: string,
  rules: OrderRules,
  log: Logger,
): Promise<OrderPaymentResult> {
  const order = await getOrderFor(caller, orderId, { adminMaySee: false });
  if (order.checkoutId) throw AppError.conflict(lineOfCheckout(order.checkoutId));
  if (order.paid && order.transactionId === transactionId)
    return { paid: true, message: 'This order is already paid.', order: toOrder(order, rules) };
  // Only the payment this API started for the order is looked up at Stripe: any other id would
  // let a customer make the shop retrieve whatever it is given.
  if (transactionId !== order.paymentIntentId) {
    if (order.paid)
      return { paid: true, message: 'This order is already paid.', order: toOrder(order, rules) };
    throw AppError.conflict(FOREIGN_PAYMENT);
  }
  let intent: Stripe.PaymentIntent | undefined;
  try {
    intent = await stripe.paymentIntents.retrieve(transactionId);
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw providerError(err);
  }
  const confirmed =
    intent !== undefined &&
    intent.status === 'succeeded' &&
    intent.metadata?.orderId === orderId &&
    intent.currency === 'usd';
  if (confirmed && intent) {
    if (await markPaid(orderId, intent.amount, intent.id)) {
      const paid = await getOrderFor(caller, orderId, { adminMaySee: false });
      return { paid: true, message: 'Payment confirmed.', order: toOrder(paid, rules) };
    }
    const why = await strayReason(orderId, intent);
    if (why) {
      await refundStray(stripe, intent, orderId, why, log);
      const now = await getOrderFor(caller, orderId, { adminMaySee: false });
      return {
        paid: now.paid,
        message: now.paid
          ? 'This order was already paid; the second payment is being refunded.'
          : 'This order can no longer be paid (it expired or changed), so the payment is being refunded.',
        order: toOrder(now, rules),
      };
    }
    const now = await getOrderFor(caller, orderId, { adminMaySee: false });
    return {
      paid: now.paid,
      message: now.paid ? 'Payment confirmed.' : NOT_CONFIRMED,
      order: toOrder(now, rules),
    };
  }
  if (order.paid) return { paid: true, message: 'This order is already paid.', order: toOrder(order, rules) };
  return { paid: false, message: NOT_CONFIRMED, order: toOrder(order, rules) };
}

/**
 * POST /webhooks/stripe — Stripe's word. The signature is checked over the raw bytes with the
 * library's default tolerance. Each event is applied idempotently (every step is conditional on
 * the state it moves from) and its id recorded afterwards, so a repeat is answered at once:
 * `payment_intent.succeeded` pays its order or checkout, `charge.refunded` records refunds made
 * in Stripe's dashboard, `charge.dispute.created` / `.closed` hold and release the orders of a
 * disputed payment. Any other type is acknowledged, and logged once per process.
 */
export async function handleStripeWebhook(
  stripe: Stripe,
  secret: string,
  rawBody: Buffer | undefined,
  signature: string,
  log: Logger,
): Promise<{ received: true }> {
  if (!rawBody || !signature) throw AppError.badRequest('Missing webhook body or Stripe-Signature header.');
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (err) {
    throw AppError.badRequest(`Webhook signature verification failed: ${(err as Error).message}`);
  }
  if (recentEvents.has(event.id)) return { received: true };
  if (event.type === 'payment_intent.succeeded') {
    // The payment's own record is the event's: the order (or checkout) it paid keeps the event id
    // in the same update, and a repeat finds it paid by this intent and changes nothing. No
    // command more than the payment itself on the database's one connection.
    await paymentSucceeded(stripe, event.data.object, event.id, log);
  } else {
    if (await StripeEventModel.exists({ _id: event.id })) return { received: true };
    await applyEvent(stripe, event, log);
    await StripeEventModel.updateOne(
      { _id: event.id },
      { $setOnInsert: { type: event.type, at: new Date() } },
      { upsert: true },
    );
  }
  recentEvents.set(event.id, true);
  return { received: true };
}

/** Events applied lately by this process (ids only: a few MB hold a day of a busy shop's). */
const recentEvents = new LRUCache<string, true>({
  maxSize: cacheBytes('stripeEvents'),
  sizeCalculation: (_v, id) => 64 + 2 * id.length,
});

const unknownTypes = new Set<string>();

async function applyEvent(stripe: Stripe, event: Stripe.Event, log: Logger): Promise<void> {
  switch (event.type) {
    case 'payment_intent.succeeded':
      return paymentSucceeded(stripe, event.data.object, event.id, log);
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentId = idOf(charge.payment_intent);
      if (paymentId) await recordProviderRefund(paymentId, charge.amount_refunded, log);
      return;
    }
    case 'charge.dispute.created': {
      const paymentId = await disputedPayment(stripe, event.data.object);
      if (paymentId) await openDispute(paymentId);
      log.warn({ paymentId, dispute: event.data.object.id }, 'payment disputed: its orders do not ship');
      return;
    }
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const paymentId = await disputedPayment(stripe, dispute);
      // `lost` is the only outcome that takes the money; won and warning_closed leave it.
      if (paymentId) await closeDispute(paymentId, dispute.status !== 'lost');
      return;
    }
    default:
      if (!unknownTypes.has(event.type)) {
        unknownTypes.add(event.type);
        log.info({ type: event.type }, 'Stripe event type not used here; acknowledged');
      }
  }
}

const idOf = (ref: string | { id: string } | null | undefined) => (typeof ref === 'string' ? ref : ref?.id);

/** The PaymentIntent of a dispute: named by newer API versions, else found through its charge. */
async function disputedPayment(stripe: Stripe, dispute: Stripe.Dispute): Promise<string | undefined> {
  const named = idOf(dispute.payment_intent);
  if (named) return named;
  const chargeId = idOf(dispute.charge);
  if (!chargeId) return undefined;
  try {
    return idOf((await stripe.charges.retrieve(chargeId)).payment_intent);
  } catch (err) {
    throw providerError(err);
  }
}

/** `payment_intent.succeeded`: marks its order (or checkout) paid once, or refunds a stray payment. */
async function paymentSucceeded(
  stripe: Stripe,
  intent: Stripe.PaymentIntent,
  eventId: string,
  log: Logger,
): Promise<void> {
  const checkoutId = objectIdSchema.safeParse(intent.metadata?.checkoutId);
  if (checkoutId.success) {
    await payCheckout(stripe, checkoutId.data, intent, log, eventId);
    return;
  }
  const orderId = objectIdSchema.safeParse(intent.metadata?.orderId);
  if (!orderId.success || intent.currency !== 'usd') {
    log.warn({ intent: intent.id }, 'payment_intent.succeeded without a usable orderId; ignored');
    return;
  }
  const changed = await markPaid(orderId.data, intent.amount, intent.id, eventId);
  if (!changed) {
    // Not a replay: the money has no order to go to, so it goes back (502 → Stripe retries).
    const why = await strayReason(orderId.data, intent);
    if (why) await refundStray(stripe, intent, orderId.data, why, log);
  }
}
