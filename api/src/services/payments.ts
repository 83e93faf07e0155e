import Stripe from 'stripe';
import { objectIdSchema, type OrderPaymentResult, type PaymentIntent } from '@motoparts/contracts';
import type { Caller } from '../context';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import { OrderModel } from '../models/order';
import { getOrderFor, markPaid, toOrder } from './orders';

function providerError(err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err);
  return new AppError('PAYMENT_PROVIDER_ERROR', `The payment provider could not be reached: ${message}`);
}

/**
 * Creates (or, thanks to the per-order idempotency key, re-obtains) the PaymentIntent for the
 * caller's own unpaid order. The amount is the stored order price in cents; a client-sent price
 * is never used.
 */
export async function createPaymentIntent(
  stripe: Stripe,
  caller: Caller,
  orderId: string,
): Promise<PaymentIntent> {
  const order = await getOrderFor(caller, orderId, { adminMaySee: false });
  if (order.paid) throw AppError.conflict('This order is already paid.');
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: order.priceCents,
        currency: 'usd',
        description: `MotoParts order ${orderId}: ${order.qty} × ${order.Parts}`,
        metadata: { orderId, user: order.user },
        receipt_email: order.user,
      },
      // Same order and amount → same intent, however often the payment page reloads.
      { idempotencyKey: `motoparts-order-${orderId}-${order.priceCents}` },
    );
  } catch (err) {
    throw providerError(err);
  }
  if (!intent.client_secret) throw providerError(new Error('no client secret in the answer'));
  await OrderModel.updateOne(
    { _id: orderId, paid: false },
    { $set: { paymentIntentId: intent.id, paymentIntentAmount: intent.amount } },
  );
  return { clientSecret: intent.client_secret };
}

const NOT_CONFIRMED =
  'Stripe has not confirmed this payment, so the order stays unpaid. It is marked paid as soon as Stripe confirms it.';

/**
 * PATCH /order/:id — the client reports a transaction id. We never take its word: the order is
 * paid only if Stripe says that PaymentIntent succeeded for this order and amount.
 */
export async function claimPayment(
  stripe: Stripe,
  caller: Caller,
  orderId: string,
  transactionId: string,
): Promise<OrderPaymentResult> {
  const order = await getOrderFor(caller, orderId, { adminMaySee: false });
  if (order.paid) return { paid: true, message: 'This order is already paid.', order: toOrder(order) };
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
    intent.amount === order.priceCents &&
    intent.currency === 'usd';
  if (confirmed && intent) {
    const paid = await markPaid(orderId, intent.amount, intent.id);
    const now = paid ?? (await getOrderFor(caller, orderId, { adminMaySee: false }));
    return { paid: now.paid, message: now.paid ? 'Payment confirmed.' : NOT_CONFIRMED, order: toOrder(now) };
  }
  return { paid: false, message: NOT_CONFIRMED, order: toOrder(order) };
}

/**
 * POST /webhooks/stripe — Stripe's word. The signature is checked over the raw bytes with the
 * library's default tolerance; `payment_intent.succeeded` marks the order paid once (a replay
 * finds it already paid and changes nothing).
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
  if (event.type !== 'payment_intent.succeeded') return { received: true };
  const intent = event.data.object;
  const orderId = objectIdSchema.safeParse(intent.metadata?.orderId);
  if (!orderId.success || intent.currency !== 'usd') {
    log.warn({ intent: intent.id }, 'payment_intent.succeeded without a usable orderId; ignored');
    return { received: true };
  }
  const changed = await markPaid(orderId.data, intent.amount, intent.id);
  if (!changed) {
    const existing = await OrderModel.findById(orderId.data, { paid: 1, priceCents: 1 }).lean();
    if (!existing) log.warn({ orderId: orderId.data }, 'payment for an unknown order');
    else if (!existing.paid)
      log.warn({ orderId: orderId.data, amount: intent.amount }, 'payment amount does not match the order');
  }
  return { received: true };
}
