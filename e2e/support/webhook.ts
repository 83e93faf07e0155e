import Stripe from 'stripe';
import { API_URL, STRIPE_WEBHOOK_SECRET } from './env';

/**
 * Posts a signed `payment_intent.succeeded` event, as Stripe would: for one order (its id in the
 * intent's metadata) or for a checkout (the checkout's id, as the API's intent for it carries).
 */
export async function postPaymentSucceeded(
  opts: ({ orderId: string } | { checkoutId: string }) & { amountCents: number; paymentIntentId?: string },
): Promise<Response> {
  const payload = JSON.stringify({
    id: `evt_e2e_${Date.now()}`,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: {
      object: {
        id: opts.paymentIntentId ?? `pi_e2e_${Date.now()}`,
        object: 'payment_intent',
        amount: opts.amountCents,
        amount_received: opts.amountCents,
        currency: 'usd',
        status: 'succeeded',
        metadata: 'checkoutId' in opts ? { checkoutId: opts.checkoutId } : { orderId: opts.orderId },
      },
    },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_WEBHOOK_SECRET });
  return fetch(`${API_URL}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: payload,
  });
}
