import type { Order } from '@motoparts/contracts';

/**
 * My Order's view of a checkout (docs/product.md#my-order): its lines are orders that share a
 * `checkoutId`, paid, cancelled and expired together, so they are shown, paid and cancelled as
 * one. Pure, so the grouping rules are tested without a browser.
 */
export interface CheckoutGroup {
  checkoutId: string;
  /** Its lines, in the list's order (newest first). */
  orders: Order[];
  /** The sum of the lines' prices, in dollars (cents added as whole numbers). */
  total: number;
  /** When it was placed: the earliest line's creation time, if the API gave one. */
  createdAt: string | undefined;
  /**
   * - `paid`: every line is paid (one payment paid them all);
   * - `expired`: not paid in time, its pieces went back to stock;
   * - `unpaid`: still to be paid or cancelled.
   */
  state: 'unpaid' | 'paid' | 'expired';
  /** The one payment's id, once paid. */
  transactionId: string | undefined;
}

/** My Order's two lists: the checkouts, and the orders placed one at a time. */
export interface MyOrders {
  checkouts: CheckoutGroup[];
  singles: Order[];
}

function groupState(orders: readonly Order[]): CheckoutGroup['state'] {
  if (orders.length > 0 && orders.every((o) => o.paid)) return 'paid';
  // The lines expire together; one expired line is enough to stop offering a payment.
  if (orders.some((o) => !o.paid && o.status === 'expired')) return 'expired';
  return 'unpaid';
}

function earliest(orders: readonly Order[]): string | undefined {
  return orders
    .map((o) => o.createdAt)
    .filter((t): t is string => Boolean(t))
    .sort()[0];
}

function toGroup(checkoutId: string, orders: Order[]): CheckoutGroup {
  const cents = orders.reduce((sum, o) => sum + Math.round(o.price * 100), 0);
  return {
    checkoutId,
    orders,
    total: cents / 100,
    createdAt: earliest(orders),
    state: groupState(orders),
    transactionId: orders.find((o) => o.transactionId)?.transactionId,
  };
}

/**
 * The customer's orders (newest first, as the API lists them) split into checkouts, each in the
 * place of its newest line, and single orders, both still newest first.
 */
export function groupOrders(orders: readonly Order[]): MyOrders {
  const lines = new Map<string, Order[]>();
  const singles: Order[] = [];
  for (const order of orders) {
    if (!order.checkoutId) {
      singles.push(order);
      continue;
    }
    const group = lines.get(order.checkoutId);
    if (group) group.push(order);
    else lines.set(order.checkoutId, [order]);
  }
  // A Map keeps insertion order: each checkout where its first (newest) line was met.
  const checkouts = [...lines].map(([checkoutId, group]) => toGroup(checkoutId, group));
  return { checkouts, singles };
}

/** "Checkout of Nov 27, 2026, 9:41 AM — 3 lines — $1,234.50", without the price formatting. */
export function checkoutDate(createdAt: string | undefined): string {
  if (!createdAt) return '';
  const date = new Date(createdAt);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

export function linesLabel(count: number): string {
  return count === 1 ? '1 line' : `${count} lines`;
}
