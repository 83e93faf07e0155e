import Stripe from 'stripe';
import { AppError } from '../lib/app-error';
import type { Logger } from '../lib/logger';
import type { RefundRequest } from '../orders/payments-port';

/** Stripe unreachable or refusing: a 502, so a webhook is retried and a page says so. */
export function providerError(err: unknown): AppError {
  const message = err instanceof Error ? err.message : String(err);
  return new AppError('PAYMENT_PROVIDER_ERROR', `The payment provider could not be reached: ${message}`);
}

/**
 * A succeeded payment that no order can take (gone, expired, cancelled, already paid by another
 * intent, or another amount) goes back to the payer: refunded through Stripe once per intent
 * (idempotency key), and logged as an error with the order and intent ids.
 */
export async function refundStray(
  stripe: Stripe,
  intent: Pick<Stripe.PaymentIntent, 'id' | 'amount'>,
  orderId: string | undefined,
  why: string,
  log: Logger,
): Promise<void> {
  log.error({ orderId, intent: intent.id, amount: intent.amount }, `payment ${why}: refunding it`);
  try {
    const refund = await stripe.refunds.create(
      { payment_intent: intent.id, metadata: { orderId: orderId ?? '', reason: why } },
      { idempotencyKey: `motoparts-refund-${intent.id}` },
    );
    log.error({ orderId, intent: intent.id, refund: refund.id }, 'stray payment refunded');
  } catch (err) {
    throw providerError(err);
  }
}

/**
 * A refund the shop makes of an order (or a checkout's line): the order named in its metadata,
 * and Stripe's idempotency key from the order's own record, so a retry refunds once.
 */
export async function refundPayment(stripe: Stripe, request: RefundRequest): Promise<void> {
  try {
    await stripe.refunds.create(
      {
        payment_intent: request.paymentId,
        amount: request.amountCents,
        metadata: {
          orderId: request.orderId,
          ...(request.checkoutId ? { checkoutId: request.checkoutId } : {}),
          source: 'shop',
        },
      },
      { idempotencyKey: request.key },
    );
  } catch (err) {
    if (err instanceof Stripe.errors.StripeInvalidRequestError) {
      throw AppError.conflict(`The payment provider refused the refund: ${err.message}`);
    }
    throw providerError(err);
  }
}

/**
 * Calls off an open PaymentIntent at Stripe before its pieces go back; Stripe refuses to cancel one
 * that succeeded (or was cancelled already), and then it is asked which. The intent as it is now.
 */
export async function cancelOrRetrieve(stripe: Stripe, intentId: string): Promise<Stripe.PaymentIntent> {
  try {
    return await stripe.paymentIntents.cancel(intentId);
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw providerError(err);
    try {
      return await stripe.paymentIntents.retrieve(intentId);
    } catch (again) {
      throw providerError(again);
    }
  }
}
