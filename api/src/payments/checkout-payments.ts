import type Stripe from 'stripe';
import type { Checkout, PaymentIntent } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import type { Logger } from '../lib/logger';
import { checkoutFor, expireCheckout, getCheckout, markCheckoutPaid } from '../orders/checkout';
import { CheckoutModel, type CheckoutDoc } from '../orders/model';
import type { OrderRules } from '../orders/rules';
import { cancelOrRetrieve, providerError, refundStray } from './refunds';

type CheckoutRecord = CheckoutDoc & { _id: string };

/**
 * One PaymentIntent for a checkout's total (metadata names the checkout), made once per checkout
 * and amount (idempotency key), however often the payment page reloads.
 */
export async function createCheckoutIntent(
  stripe: Stripe,
  caller: Caller,
  checkoutId: string,
  rules: Pick<OrderRules, 'holdMs'>,
): Promise<PaymentIntent> {
  const doc = await checkoutFor(caller, checkoutId, { adminMaySee: false });
  if (doc.state === 'paid') throw AppError.conflict('This checkout is already paid.');
  if (doc.state !== 'placed') throw AppError.conflict('This checkout has been cancelled or has expired.');
  const createdAt = doc.createdAt ? new Date(doc.createdAt).getTime() : Date.now();
  if (createdAt + rules.holdMs <= Date.now()) {
    await expireCheckout(checkoutId, () => Promise.resolve('open'));
    throw AppError.conflict(
      'This checkout has expired: its pieces went back to stock. Please check out again.',
    );
  }
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.create(
      {
        amount: doc.totalCents,
        currency: 'usd',
        description: `MotoParts checkout ${checkoutId}: ${doc.lines.length} lines`,
        metadata: { checkoutId, user: doc.user },
        receipt_email: doc.user,
      },
      { idempotencyKey: `motoparts-checkout-${checkoutId}-${doc.totalCents}` },
    );
  } catch (err) {
    throw providerError(err);
  }
  if (!intent.client_secret) throw providerError(new Error('no client secret in the answer'));
  await CheckoutModel.updateOne({ _id: checkoutId }, { $set: { paymentIntentId: intent.id } });
  return { clientSecret: intent.client_secret };
}

/** Why a succeeded intent could not pay its checkout, or undefined when it already did. */
async function strayReason(checkoutId: string, intent: Stripe.PaymentIntent): Promise<string | undefined> {
  const doc = await CheckoutModel.findById(checkoutId).lean<CheckoutRecord>();
  if (!doc || doc.state === 'failed' || doc.state === 'reserving')
    return 'for a checkout that does not exist';
  if (doc.state === 'paid')
    return doc.transactionId === intent.id ? undefined : 'for a checkout already paid by another payment';
  if (doc.state !== 'placed') return 'for a checkout that expired or was cancelled';
  if (doc.totalCents !== intent.amount)
    return `of ${intent.amount} cents for a checkout of ${doc.totalCents} cents`;
  return 'that could not be applied to its checkout';
}

/** A succeeded intent for a checkout: every line paid, or (amount, state) none and a refund. */
export async function payCheckout(
  stripe: Stripe,
  checkoutId: string,
  intent: Stripe.PaymentIntent,
  log: Logger,
  eventId?: string,
): Promise<boolean> {
  if (intent.currency === 'usd' && (await markCheckoutPaid(checkoutId, intent.amount, intent.id, eventId)))
    return true;
  const why = intent.currency === 'usd' ? await strayReason(checkoutId, intent) : 'in another currency';
  if (why) await refundStray(stripe, intent, checkoutId, why, log);
  return false;
}

/**
 * PATCH /checkout/:id — the client reports its checkout's payment; only the intent the API made
 * for it is asked about, and the checkout is paid only on Stripe's word.
 */
export async function claimCheckoutPayment(
  stripe: Stripe,
  caller: Caller,
  checkoutId: string,
  transactionId: string,
  rules: Pick<OrderRules, 'holdMs'>,
  log: Logger,
): Promise<Checkout> {
  const doc = await checkoutFor(caller, checkoutId, { adminMaySee: false });
  if (doc.state === 'paid' && doc.transactionId === transactionId)
    return getCheckout(caller, checkoutId, rules);
  if (transactionId !== doc.paymentIntentId) {
    throw AppError.conflict('This payment was not started for this checkout. Pay it from its payment page.');
  }
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.retrieve(transactionId);
  } catch (err) {
    throw providerError(err);
  }
  if (intent.status === 'succeeded' && intent.metadata?.checkoutId === checkoutId) {
    await payCheckout(stripe, checkoutId, intent, log);
  }
  return getCheckout(caller, checkoutId, rules);
}

/**
 * Before a checkout is cancelled or expired, its open PaymentIntent is cancelled at Stripe; if
 * Stripe says it had succeeded, the checkout is paid instead and stays ('paid').
 */
export async function settleCheckoutIntent(
  stripe: Stripe,
  doc: CheckoutRecord,
  log: Logger,
): Promise<'paid' | 'open'> {
  const intentId = doc.paymentIntentId;
  if (!intentId) return 'open';
  const intent = await cancelOrRetrieve(stripe, intentId);
  if (intent.status !== 'succeeded') return 'open';
  if (await payCheckout(stripe, doc._id, intent, log)) return 'paid';
  const now = await CheckoutModel.findById(doc._id).lean<CheckoutRecord>();
  return now?.state === 'paid' && now.transactionId === intent.id ? 'paid' : 'open';
}
