import type { Order, OrderEvent, OrderInput } from '@motoparts/contracts';
import { toDollars } from '../lib/money';
import type { OrderRow } from './model';
import type { OrderRules } from './rules';

/** What POST /order asks for, in the code's names (the spec's `Parts` and `price` are recomputed). */
export interface OrderRequest {
  partId: string;
  quantity: number;
  userName?: string;
  /** The buyer's email as sent: it must be the caller's own. */
  user?: string;
}

/** POST /order's body as the code names it. */
export const fromOrderInput = (input: OrderInput): OrderRequest => ({
  partId: input.partsId,
  quantity: input.qty,
  ...(input.userName !== undefined ? { userName: input.userName } : {}),
  ...(input.user !== undefined ? { user: input.user } : {}),
});

/**
 * An order as the API answers it (the spec's wire shape: `partsId`, `Parts`, `qty`, `price` in
 * dollars), from a stored order or a kept row: the one place the stored fields meet the wire's.
 */
export function toOrder(doc: OrderRow, rules?: Pick<OrderRules, 'holdMs'>): Order {
  const expiresAt =
    rules && doc.createdAt != null && !doc.paid && doc.status === 'pending'
      ? new Date(new Date(doc.createdAt).getTime() + rules.holdMs).toISOString()
      : undefined;
  return {
    _id: String(doc._id),
    partsId: String(doc.partId),
    Parts: doc.partName ?? '',
    user: doc.user,
    userName: doc.userName ?? '',
    qty: doc.quantity,
    price: toDollars(doc.priceCents ?? 0),
    paid: doc.paid,
    ...(doc.transactionId ? { transactionId: doc.transactionId } : {}),
    status: doc.status,
    ...(doc.createdAt != null ? { createdAt: new Date(doc.createdAt).toISOString() } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    ...(doc.checkoutId ? { checkoutId: doc.checkoutId } : {}),
    ...(doc.carrier ? { carrier: doc.carrier } : {}),
    ...(doc.trackingNumber ? { trackingNumber: doc.trackingNumber } : {}),
    ...(doc.refundedCents ? { refunded: toDollars(doc.refundedCents) } : {}),
    history: historyOf(doc),
  };
}

const iso = (at: Date | number | string) => new Date(at).toISOString();

/** Placed and paid come from the order's own times; what followed is stored as it happened. */
function historyOf(doc: OrderRow): OrderEvent[] {
  const events: OrderEvent[] = [];
  if (doc.createdAt != null) events.push({ event: 'placed', at: iso(doc.createdAt) });
  if (doc.paid && doc.paidAt != null) events.push({ event: 'paid', at: iso(doc.paidAt) });
  for (const e of doc.history ?? []) {
    events.push({
      event: e.event,
      at: iso(e.at),
      ...(e.amountCents != null ? { amount: toDollars(e.amountCents) } : {}),
      ...(e.note ? { note: e.note } : {}),
    });
  }
  return events;
}

/** Manage Order's export (GET /export/orders.csv): its columns, in order. */
export const ORDER_COLUMNS = [
  '_id',
  'createdAt',
  'user',
  'userName',
  'partsId',
  'Parts',
  'qty',
  'price',
  'paid',
  'transactionId',
  'status',
  'carrier',
  'trackingNumber',
  'refunded',
] as const;

/** An order as one row of the export, in ORDER_COLUMNS order. */
export function orderCsvRow(order: Order): string[] {
  return [
    order._id,
    order.createdAt ?? '',
    order.user,
    order.userName,
    order.partsId,
    order.Parts,
    String(order.qty),
    order.price.toFixed(2),
    order.paid ? 'true' : 'false',
    order.transactionId ?? '',
    order.status,
    order.carrier ?? '',
    order.trackingNumber ?? '',
    order.refunded === undefined ? '' : order.refunded.toFixed(2),
  ];
}
