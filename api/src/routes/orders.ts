import type Router from '@koa/router';
import {
  orderInputSchema,
  orderPaymentClaimSchema,
  pageQuerySchema,
  paymentIntentInputSchema,
  shippingStatusInputSchema,
  userOrdersQuerySchema,
  type Order,
} from '@motoparts/contracts';
import type Stripe from 'stripe';
import type { AppState, RouteDeps } from '../context';
import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { OrderDoc } from '../models/order';
import { withOrderKey, type Answer } from '../services/order-keys';
import { setPageHeaders } from '../lib/paging';
import { adminOnly, assertSelfOrAdmin, callerOf, signedIn } from '../middleware/auth';
import * as orders from '../services/orders';
import * as payments from '../services/payments';
import * as users from '../services/users';
import { idParam, parseBody, parseQuery } from '../validate';

export function orderRoutes(router: Router<AppState>, { env, limits }: RouteDeps, stripe: Stripe): void {
  const auth = signedIn(env);
  const admin = adminOnly(env);

  const rules = orders.orderRules(env);
  const settle = (doc: OrderDoc, log: Logger) => payments.settleIntent(stripe, doc, log);

  router.post('/order', auth, async (ctx) => {
    const caller = callerOf(ctx.state);
    const input = parseBody(orderInputSchema, ctx.state.body);
    await limits.consume('order', caller.uid);
    const place = async (orderId?: string): Promise<Answer> => ({
      status: 201,
      body: await orders.placeOrder(caller, input, rules, orderId),
    });
    const key = ctx.get('idempotency-key');
    if (key && !/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw AppError.badRequest('Idempotency-Key must be 1 to 255 visible ASCII characters.');
    }
    const answer = key
      ? await withOrderKey(caller.uid, key, ctx.state.body, place, async (orderId) => ({
          status: 201,
          body: orders.toOrder(await orders.getOrderFor(caller, orderId, { adminMaySee: false }), rules),
        }))
      : await place();
    ctx.status = answer.status;
    const order = answer.body as Order;
    if (answer.status === 201) ctx.set('Location', `/order/${order._id}`);
    ctx.body = answer.body;
  });

  router.get('/orders', admin, async (ctx) => {
    const { page, limit } = parseQuery(pageQuerySchema, ctx.query);
    const { items, total } = await orders.listAllOrders(page, limit, rules);
    setPageHeaders(ctx, total, page, limit);
    ctx.body = items;
  });

  router.get('/order', auth, async (ctx) => {
    const caller = callerOf(ctx.state);
    const { user, page, limit } = parseQuery(userOrdersQuerySchema, ctx.query);
    assertSelfOrAdmin(caller, user);
    // By account, not by address: orders of an earlier account with this email are not listed.
    const uid = user === caller.email ? caller.uid : await users.uidOf(user);
    const { items, total } = uid
      ? await orders.listOrdersOf(uid, page, limit, rules)
      : { items: [], total: 0 };
    setPageHeaders(ctx, total, page, limit);
    ctx.body = items;
  });

  router.get('/order/:id', auth, async (ctx) => {
    const doc = await orders.getOrderFor(callerOf(ctx.state), idParam(ctx.params.id));
    ctx.body = orders.toOrder(doc, rules);
  });

  router.delete('/order/:id', auth, async (ctx) => {
    await orders.cancelOrder(callerOf(ctx.state), idParam(ctx.params.id), (doc) =>
      settle(doc, ctx.state.log),
    );
    ctx.body = { success: true };
  });

  router.patch('/order/:id', auth, async (ctx) => {
    const id = idParam(ctx.params.id);
    const { transactionId } = parseBody(orderPaymentClaimSchema, ctx.state.body);
    ctx.body = await payments.claimPayment(
      stripe,
      callerOf(ctx.state),
      id,
      transactionId,
      rules,
      ctx.state.log,
    );
  });

  router.patch('/order/:id/status', admin, async (ctx) => {
    const id = idParam(ctx.params.id);
    const { status } = parseBody(shippingStatusInputSchema, ctx.state.body);
    ctx.body = await orders.setShippingStatus(id, status, rules);
  });

  router.post('/create-payment-intent', auth, async (ctx) => {
    const { orderId } = parseBody(paymentIntentInputSchema, ctx.state.body);
    ctx.body = await payments.createPaymentIntent(stripe, callerOf(ctx.state), orderId, rules);
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
