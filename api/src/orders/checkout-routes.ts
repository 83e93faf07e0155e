import { cartLineInputSchema, checkoutInputSchema, successSchema, type Checkout } from '@motoparts/contracts';
import { callerOf, signedIn } from '../http/auth';
import type { ApiRoutes } from '../http/openapi';
import { rateLimited } from '../http/rate-limit';
import { validate } from '../http/validate';
import type { RouteDeps } from '../route-deps';
import { getCart, refillCart, removeCartLine, setCartLine } from './cart';
import { cancelCheckout, checkoutFor, getCheckout, placeCheckout } from './checkout';
import { answerOnce, type Answer } from './keys';
import { orderRules } from './rules';
import {
  CartSchema,
  cartLineParams,
  checkoutIdParams,
  CheckoutSchema,
  placeOrderHeaders,
} from './validators';

/** The cart (GET, PUT and DELETE of its lines) and the checkout of it: customers only. */
export function checkoutRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, limits, payments } = deps;
  const auth = signedIn(deps);
  const rules = orderRules(env);
  const section = routes.section('cart');

  section.get(
    '/cart',
    {
      operationId: 'getCart',
      summary: 'Your cart',
      description:
        'Each line as it is now (price, stock), with a `problem` when it cannot be checked out as it is.',
      ok: { description: 'The cart.', body: CartSchema },
      errors: [403],
    },
    auth,
    async (ctx) => {
      ctx.body = await getCart(callerOf(ctx.state));
    },
  );

  section.put(
    '/cart/lines/:partId',
    {
      operationId: 'setCartLine',
      summary: 'Set a line of your cart',
      description:
        'At the part’s price for that quantity: below its minimum a 400 ("Minimum purchase quantity is …"), above its stock a 409 ("You have reach our available stocks"), at most 50 lines.',
      ok: { description: 'The cart.', body: CartSchema },
      errors: [403, 404, 409],
    },
    auth,
    validate({ params: cartLineParams, body: cartLineInputSchema }),
    async (ctx) => {
      const { params, body } = ctx.state.input;
      ctx.body = await setCartLine(callerOf(ctx.state), params.partId, body.qty);
    },
  );

  section.delete(
    '/cart/lines/:partId',
    {
      operationId: 'removeCartLine',
      summary: 'Remove a line from your cart',
      ok: { description: 'The cart.', body: CartSchema },
      errors: [403],
    },
    auth,
    validate({ params: cartLineParams }),
    async (ctx) => {
      ctx.body = await removeCartLine(callerOf(ctx.state), ctx.state.input.params.partId);
    },
  );

  const checkouts = routes.section('checkout');

  checkouts.post(
    '/checkout',
    {
      operationId: 'placeCheckout',
      summary: 'Check out your cart',
      description:
        'One order per line, all or nothing: a line that cannot be reserved reserves nothing (409 naming each line with what is available). The address and phone are kept for next time. One hold against the open-order cap.',
      headers: placeOrderHeaders,
      ok: {
        status: 201,
        description: 'The checkout and its orders.',
        body: CheckoutSchema,
        headers: ['Location'],
      },
      errors: [403, 409, 422],
    },
    auth,
    validate({ body: checkoutInputSchema }),
    rateLimited(limits, 'checkout', (state) => callerOf(state).uid),
    async (ctx) => {
      const caller = callerOf(ctx.state);
      const input = ctx.state.input.body;
      const place = async (checkoutId?: string): Promise<Answer> => ({
        status: 201,
        body: await placeCheckout(caller, input, rules, checkoutId),
      });
      const answer = await answerOnce(
        ctx.get('idempotency-key'),
        'checkout',
        caller.uid,
        ctx.request.body,
        place,
        async (id) => ({ status: 201, body: await getCheckout(caller, id, rules) }),
      );
      ctx.status = answer.status;
      if (answer.status === 201) ctx.set('Location', `/checkout/${(answer.body as Checkout).checkoutId}`);
      ctx.body = answer.body;
    },
  );

  checkouts.get(
    '/checkout/:id',
    {
      operationId: 'getCheckout',
      summary: 'One checkout and its orders',
      description: 'Your own, or any for an admin.',
      ok: { description: 'The checkout.', body: CheckoutSchema },
      errors: [403, 404],
    },
    auth,
    validate({ params: checkoutIdParams }),
    async (ctx) => {
      ctx.body = await getCheckout(callerOf(ctx.state), ctx.state.input.params.id, rules);
    },
  );

  checkouts.delete(
    '/checkout/:id',
    {
      operationId: 'cancelCheckout',
      summary: 'Cancel an unpaid checkout: your own, or any for an admin',
      description:
        'Its PaymentIntent is cancelled at Stripe first; every line’s pieces go back to stock. ' +
        'Admins release the pieces of any unpaid checkout this way (the Overview).',
      ok: { description: 'Cancelled.', body: successSchema },
      errors: [403, 404, 409, 502],
    },
    auth,
    validate({ params: checkoutIdParams }),
    rateLimited(limits, 'stripe', (state) => callerOf(state).uid),
    async (ctx) => {
      await cancelCheckout(callerOf(ctx.state), ctx.state.input.params.id, (doc) =>
        payments.settleCheckout(doc, ctx.state.log),
      );
      ctx.body = { success: true };
    },
  );

  checkouts.post(
    '/checkout/:id/order-again',
    {
      operationId: 'orderCheckoutAgain',
      summary: 'Put a checkout’s lines back in your cart',
      description: 'Each at today’s price; a line that cannot be added (part gone, stock short) is left out.',
      ok: { description: 'The cart.', body: CartSchema },
      errors: [403, 404],
    },
    auth,
    validate({ params: checkoutIdParams }),
    async (ctx) => {
      const caller = callerOf(ctx.state);
      const doc = await checkoutFor(caller, ctx.state.input.params.id, { adminMaySee: false });
      ctx.body = await refillCart(
        caller,
        doc.lines.map((l) => ({ partId: l.partId, quantity: l.quantity })),
      );
    },
  );
}
