import type Router from '@koa/router';
import {
  orderInputSchema,
  orderPaymentClaimSchema,
  pageQuerySchema,
  paymentIntentInputSchema,
  shippingStatusInputSchema,
  userOrdersQuerySchema,
} from '@motoparts/contracts';
import type Stripe from 'stripe';
import type { AppState, RouteDeps } from '../context';
import { setPageHeaders } from '../lib/paging';
import { adminOnly, assertSelfOrAdmin, callerOf, signedIn } from '../middleware/auth';
import * as orders from '../services/orders';
import * as payments from '../services/payments';
import * as users from '../services/users';
import { idParam, parseBody, parseQuery } from '../validate';

export function orderRoutes(router: Router<AppState>, { env, limits }: RouteDeps, stripe: Stripe): void {
  const auth = signedIn(env);
  const admin = adminOnly(env);

  router.post('/order', auth, async (ctx) => {
    const caller = callerOf(ctx.state);
    const input = parseBody(orderInputSchema, ctx.state.body);
    await limits.consume('order', caller.uid);
    const order = await orders.placeOrder(caller, input);
    ctx.status = 201;
    ctx.set('Location', `/order/${order._id}`);
    ctx.body = order;
  });

  router.get('/orders', admin, async (ctx) => {
    const { page, limit } = parseQuery(pageQuerySchema, ctx.query);
    const { items, total } = await orders.listAllOrders(page, limit);
    setPageHeaders(ctx, total, page, limit);
    ctx.body = items;
  });

  router.get('/order', auth, async (ctx) => {
    const caller = callerOf(ctx.state);
    const { user, page, limit } = parseQuery(userOrdersQuerySchema, ctx.query);
    assertSelfOrAdmin(caller, user);
    // By account, not by address: orders of an earlier account with this email are not listed.
    const uid = user === caller.email ? caller.uid : await users.uidOf(user);
    const { items, total } = uid ? await orders.listOrdersOf(uid, page, limit) : { items: [], total: 0 };
    setPageHeaders(ctx, total, page, limit);
    ctx.body = items;
  });

  router.get('/order/:id', auth, async (ctx) => {
    const doc = await orders.getOrderFor(callerOf(ctx.state), idParam(ctx.params.id));
    ctx.body = orders.toOrder(doc);
  });

  router.delete('/order/:id', auth, async (ctx) => {
    await orders.cancelOrder(callerOf(ctx.state), idParam(ctx.params.id));
    ctx.body = { success: true };
  });

  router.patch('/order/:id', auth, async (ctx) => {
    const id = idParam(ctx.params.id);
    const { transactionId } = parseBody(orderPaymentClaimSchema, ctx.state.body);
    ctx.body = await payments.claimPayment(stripe, callerOf(ctx.state), id, transactionId);
  });

  router.patch('/order/:id/status', admin, async (ctx) => {
    const id = idParam(ctx.params.id);
    const { status } = parseBody(shippingStatusInputSchema, ctx.state.body);
    ctx.body = await orders.setShippingStatus(id, status);
  });

  router.post('/create-payment-intent', auth, async (ctx) => {
    const { orderId } = parseBody(paymentIntentInputSchema, ctx.state.body);
    ctx.body = await payments.createPaymentIntent(stripe, callerOf(ctx.state), orderId);
  });

  router.post('/webhooks/stripe', async (ctx) => {
    ctx.body = await payments.handleStripeWebhook(
      stripe,
      env.STRIPE_WEBHOOK_SECRET,
      ctx.state.rawBody,
      ctx.get('stripe-signature'),
      ctx.state.log,
    );
  });
}
