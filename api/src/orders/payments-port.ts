import type { Logger } from '../lib/logger';
import type { CheckoutDoc, OrderDoc } from './model';

/**
 * What the orders need of the payments, given to them by whoever wires the app (createRoutes, the
 * server's jobs): before an unpaid order is cancelled or expired, its open payment is settled at
 * the payment provider. 'paid' when the payment had already succeeded (the order was marked paid
 * and stays), 'open' when nothing was paid. The payments module depends on the orders; the
 * orders depend only on this.
 */
export interface OpenPayments {
  settle(order: OrderDoc, log: Logger): Promise<'paid' | 'open'>;
  /** The same for a checkout's one payment ('paid': every line was marked paid and stays). */
  settleCheckout(checkout: CheckoutDoc & { _id: string }, log: Logger): Promise<'paid' | 'open'>;
  /** Where a payment stands at the provider (`processing`, `requires_action` …), for the expiry. */
  statusOf(paymentId: string): Promise<string | undefined>;
  /** Gives `amountCents` of a payment back to the payer; the same `key` never refunds twice. */
  refund(refund: RefundRequest): Promise<void>;
}

export interface RefundRequest {
  paymentId: string;
  amountCents: number;
  key: string;
  orderId: string;
  checkoutId?: string;
}
