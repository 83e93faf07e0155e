import type { Order } from '@motoparts/contracts';
import { toDollars } from '../lib/money';
import type { OrderRow } from './model';
import type { OrderRules } from './rules';

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
    partsId: String(doc.partsId),
    Parts: doc.Parts ?? '',
    user: doc.user,
    userName: doc.userName ?? '',
    qty: doc.qty,
    price: toDollars(doc.priceCents ?? 0),
    paid: doc.paid,
    ...(doc.transactionId ? { transactionId: doc.transactionId } : {}),
    status: doc.status,
    ...(doc.createdAt != null ? { createdAt: new Date(doc.createdAt).toISOString() } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    ...(doc.checkoutId ? { checkoutId: doc.checkoutId } : {}),
  };
}
