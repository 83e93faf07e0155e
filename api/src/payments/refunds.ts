import type Stripe from 'stripe';
import { AppError } from '../lib/app-error';
import type { Logger } from '../lib/logger';

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
