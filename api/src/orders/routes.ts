import {
  orderFilterSchema,
  orderInputSchema,
  orderListQuerySchema,
  refundInputSchema,
  shippingStatusInputSchema,
  successSchema,
  userOrdersQuerySchema,
  type Order,
} from '@motoparts/contracts';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps';
import { adminOnly, assertSelfOrAdmin, callerOf, signedIn } from '../http/auth';
import type { ApiRoutes } from '../http/openapi';
import { rateLimited } from '../http/rate-limit';
import { validate } from '../http/validate';
import { sendTaggedJson } from '../http/etag';
import { sendCsv } from '../lib/csv';
import { build } from '../lib/catalog-cache';
import { pageHeaders } from '../lib/paging';
import { uidOf } from '../users/lookup';
import { answerOnce, type Answer } from './keys';
import { getOrderFor, orderAnswerFor } from './access';
import { cancelOrder, setFulfilment } from './lifecycle';
import { refundOrder } from './refunds';
import { placeOrder } from './placing';
import { orderRules } from './rules';
import { fromOrderInput, ORDER_COLUMNS, orderCsvRow, toOrder } from './wire';
import { orderIdParams, OrderSchema, placeOrderHeaders } from './validators';

/** The answer for an address that no account holds now: no orders. */
const NO_ORDERS = build({ value: [], total: 0 }, 0);

export function orderRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, limits, payments, userLookup, reads } = deps;
  const auth = signedIn(deps);
  const admin = adminOnly(deps);
  const rules = orderRules(env);
  const section = routes.section('orders');

  section.post(
    '/order',
    {
      operationId: 'placeOrder',
      summary: 'Place an order',
      description:
        'Price and name come from the part; stock is taken atomically. Admins cannot buy (403). ' +
        'At most MAX_OPEN_ORDERS unpaid orders per customer (409).',
      headers: placeOrderHeaders,
      ok: {
        status: 201,
        description: 'The order, holding its stock.',
        body: OrderSchema,
        headers: ['Location'],
      },
      errors: [403, 404, 409, 422],
    },
    auth,
    validate({ body: orderInputSchema }),
    rateLimited(limits, 'order', (state) => callerOf(state).uid),
    async (ctx) => {
      const caller = callerOf(ctx.state);
      const input = fromOrderInput(ctx.state.input.body);
      const place = async (orderId?: string): Promise<Answer> => ({
        status: 201,
        body: await placeOrder(caller, input, rules, orderId),
      });
      const answer = await answerOnce(
        ctx.get('idempotency-key'),
        'order',
        caller.uid,
        ctx.request.body,
        place,
        async (orderId) => ({
          status: 201,
          body: toOrder(await getOrderFor(caller, orderId, { adminMaySee: false }), rules),
        }),
      );
      ctx.status = answer.status;
      const order = answer.body as Order;
      if (answer.status === 201) ctx.set('Location', `/order/${order._id}`);
      ctx.body = answer.body;
    },
  );

  section.get(
    '/orders',
    {
      operationId: 'listAllOrders',
      summary: 'Every order, newest first',
      description:
        'Filtered by `status` and `paid` when given; `q` is an order id (that order) or a buyer’s whole email ' +
        'address, in any case (their orders).',
      ok: { description: 'The page.', body: z.array(OrderSchema), headers: ['X-Total-Count', 'Link'] },
    },
    admin,
    validate({ query: orderListQuerySchema }),
    async (ctx) => {
      const { page, limit, ...filter } = ctx.state.input.query;
      const { items, total } = await reads.orders.listAll(page, limit, filter);
      ctx.set(pageHeaders(ctx.path, ctx.state.input.query, total));
      ctx.body = items;
    },
  );

  section.get(
    '/export/orders.csv',
    {
      operationId: 'exportOrders',
      summary: 'The orders as a CSV file',
      description:
        `Every order GET /orders lists with the same filters, newest first, streamed, in the columns \`${ORDER_COLUMNS.join(',')}\` ` +
        "(money in dollars). A cell a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) is written with a leading `'`.",
      ok: { description: 'The file.', mediaType: 'text/csv' },
    },
    admin,
    validate({ query: orderFilterSchema }),
    (ctx) => {
      const filter = ctx.state.input.query;
      const rows = reads.orders.listAllRows(filter);
      sendCsv(
        ctx,
        'orders.csv',
        ORDER_COLUMNS,
        (async function* () {
          for await (const row of rows) yield orderCsvRow(toOrder(row));
        })(),
      );
    },
  );

  section.get(
    '/order',
    {
      operationId: 'listAccountOrders',
      summary: "One account's orders, newest first",
      description: 'Your own, or anyone’s for an admin.',
      ok: { description: 'The page.', body: z.array(OrderSchema), headers: ['X-Total-Count', 'Link'] },
      errors: [403],
    },
    auth,
    validate({ query: userOrdersQuerySchema }),
    async (ctx) => {
      const caller = callerOf(ctx.state);
      const { user, page, limit } = ctx.state.input.query;
      assertSelfOrAdmin(caller, user);
      // By account, not by address: orders of an earlier account with this email are not listed.
      const uid = user === caller.email ? caller.uid : await uidOf(userLookup, user);
      const entry = uid ? await reads.orders.listOf(uid, page, limit) : NO_ORDERS;
      ctx.set(pageHeaders(ctx.path, ctx.state.input.query, entry.total));
      sendTaggedJson(ctx, entry, 'private, no-cache');
    },
  );

  section.get(
    '/order/:id',
    {
      operationId: 'getOrder',
      summary: 'One order',
      description: 'Your own, or any for an admin.',
      ok: { description: 'The order.', body: OrderSchema },
      errors: [403, 404],
    },
    auth,
    validate({ params: orderIdParams }),
    async (ctx) => {
      const { id } = ctx.state.input.params;
      ctx.body = await orderAnswerFor(callerOf(ctx.state), id, rules, reads.orders.row(id));
    },
  );

  section.delete(
    '/order/:id',
    {
      operationId: 'cancelOrder',
      summary: 'Cancel an unpaid order: your own, or any for an admin',
      description:
        'Its open PaymentIntent is cancelled at Stripe first and its pieces go back to stock. ' +
        'Admins release the pieces of any unpaid order this way (the Overview). ' +
        'Paid, shipped and expired orders cannot be cancelled (409).',
      ok: { description: 'Cancelled.', body: successSchema },
      errors: [403, 404, 409, 502],
    },
    auth,
    validate({ params: orderIdParams }),
    rateLimited(limits, 'stripe', (state) => callerOf(state).uid),
    async (ctx) => {
      await cancelOrder(callerOf(ctx.state), ctx.state.input.params.id, (doc) =>
        payments.settle(doc, ctx.state.log),
      );
      ctx.body = { success: true };
    },
  );

  section.patch(
    '/order/:id/status',
    {
      operationId: 'setOrderStatus',
      summary: 'Ship an order, take the shipment back, or mark it delivered',
      description:
        'Only paid, undisputed orders ship (`shipped`, with an optional carrier and tracking number); ' +
        '`pending` takes a shipment back before delivery; `delivered` follows `shipped`. ' +
        'The buyer is mailed of a shipment and a delivery. Any other move is a 409 saying why.',
      ok: { description: 'The order.', body: OrderSchema },
      errors: [404, 409],
    },
    admin,
    validate({ params: orderIdParams, body: shippingStatusInputSchema }),
    async (ctx) => {
      const { params, body } = ctx.state.input;
      ctx.body = await setFulfilment(params.id, body, rules);
    },
  );

  section.post(
    '/order/:id/refund',
    {
      operationId: 'refundOrder',
      summary: 'Give the money of a paid order back',
      description:
        'Its customer: the whole order, before it ships (Cancel and refund). An admin: any paid order, ' +
        'whole or `amount` dollars of what is left. Refunded through Stripe once per request ' +
        '(an idempotency key of the order and amount); an order refunded whole before it shipped ' +
        "gives its pieces back to stock. A checkout's line refunds that line's amount.",
      ok: { description: 'The order as it is now.', body: OrderSchema },
      errors: [403, 404, 409, 502],
    },
    auth,
    validate({ params: orderIdParams, body: refundInputSchema }),
    rateLimited(limits, 'stripe', (state) => callerOf(state).uid),
    async (ctx) => {
      const { params, body } = ctx.state.input;
      ctx.body = await refundOrder(
        callerOf(ctx.state),
        params.id,
        body.amount,
        payments,
        rules,
        ctx.state.log,
      );
    },
  );
}
