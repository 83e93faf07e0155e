import {
  checkoutPaymentClaimSchema,
  orderPaymentClaimSchema,
  orderPaymentResultSchema,
  paymentIntentInputSchema,
  paymentIntentSchema,
} from '@motoparts/contracts';
import type { RouteDeps } from '../route-deps';
import { callerOf, signedIn } from '../http/auth';
import type { ApiRoutes } from '../http/openapi';
import { rateLimited } from '../http/rate-limit';
import { validate } from '../http/validate';
import { orderRules } from '../orders/rules';
import { checkoutIdParams, CheckoutSchema, orderIdParams } from '../orders/validators';
import { claimCheckoutPayment, createCheckoutIntent } from './checkout-payments';
import * as payments from './service';
import { webhookHeaders, webhookReceivedSchema } from './validators';

export function paymentRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, stripe, limits } = deps;
  const auth = signedIn(deps);
  // Each of these calls Stripe: one customer must not spend the shop's Stripe rate limit. Counted
  // after validation: a malformed request never reaches Stripe.
  const stripeLimit = rateLimited(limits, 'stripe', (state) => callerOf(state).uid);
  const rules = orderRules(env);
  const section = routes.section('payments');

  section.patch(
    '/order/:id',
    {
      operationId: 'claimPayment',
      summary: 'Report a payment of your order',
      description:
        'Only the PaymentIntent this API created for the order is asked about (any other id is a 409); ' +
        'the order is marked paid only if Stripe confirms it for this order and amount; ' +
        'a payment no order can take is refunded.',
      ok: { description: 'Whether the order is paid now, and why.', body: orderPaymentResultSchema },
      errors: [403, 404, 409, 502],
    },
    auth,
    validate({ params: orderIdParams, body: orderPaymentClaimSchema }),
    stripeLimit,
    async (ctx) => {
      const { params, body } = ctx.state.input;
      ctx.body = await payments.claimPayment(
        stripe,
        callerOf(ctx.state),
        params.id,
        body.transactionId,
        rules,
        ctx.state.log,
      );
    },
  );

  section.patch(
    '/checkout/:id',
    {
      operationId: 'claimCheckoutPayment',
      summary: 'Report the payment of your checkout',
      description:
        'Only the PaymentIntent this API created for the checkout is asked about (any other is a 409); every line is marked paid only if Stripe confirms the total.',
      ok: { description: 'The checkout as it is now.', body: CheckoutSchema },
      errors: [403, 404, 409, 502],
    },
    auth,
    validate({ params: checkoutIdParams, body: checkoutPaymentClaimSchema }),
    stripeLimit,
    async (ctx) => {
      const { params, body } = ctx.state.input;
      ctx.body = await claimCheckoutPayment(
        stripe,
        callerOf(ctx.state),
        params.id,
        body.transactionId,
        rules,
        ctx.state.log,
      );
    },
  );

  section.post(
    '/create-payment-intent',
    {
      operationId: 'createPaymentIntent',
      summary: 'Start paying your order or your checkout',
      description:
        'The amount is the stored order price, or the checkout total (`{checkoutId}`: one PaymentIntent for every line); paid, expired and checkout-line orders are a 409.',
      ok: { description: 'The client secret of the PaymentIntent.', body: paymentIntentSchema },
      errors: [403, 404, 409, 502],
    },
    auth,
    validate({ body: paymentIntentInputSchema }),
    stripeLimit,
    async (ctx) => {
      const { body } = ctx.state.input;
      ctx.body = body.checkoutId
        ? await createCheckoutIntent(stripe, callerOf(ctx.state), body.checkoutId, rules)
        : await payments.createPaymentIntent(stripe, callerOf(ctx.state), body.orderId ?? '', rules);
    },
  );

  section.post(
    '/webhooks/stripe',
    {
      operationId: 'receiveStripeEvent',
      summary: "Stripe's events",
      description:
        '`payment_intent.succeeded` marks its order paid once; a payment no order can take is refunded ' +
        '(502 when Stripe cannot be reached, so Stripe retries).',
      security: 'stripeSignature',
      headers: webhookHeaders,
      rawBody: {
        mediaType: 'application/json',
        description: 'The event exactly as Stripe sent and signed it.',
      },
      ok: { description: 'Received.', body: webhookReceivedSchema },
      errors: [400, 413, 502],
    },
    async (ctx) => {
      ctx.body = await payments.handleStripeWebhook(
        stripe,
        env.STRIPE_WEBHOOK_SECRET,
        ctx.state.rawBody,
        ctx.get('stripe-signature'),
        ctx.state.log,
      );
    },
  );
}
