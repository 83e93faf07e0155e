import {
  shippingStatusInputSchema,
  type Order,
  type OrderEvent,
  type OrderEventKind,
} from '@motoparts/contracts';
import { formatPrice } from '@motoparts/state';

/*
 * What My Order and Manage Order show of an order after its payment (docs/product.md#my-order,
 * #manage-order, #shipping, #refunds): which actions it offers, its labels and its history. Pure,
 * so the rules are unit-tested without a browser; the API decides and refuses the rest (409).
 */

/** Dollars as whole cents, so sums and comparisons of prices are exact. */
const cents = (dollars: number) => Math.round(dollars * 100);

/** The dollars of an order that can still go back to the buyer. */
export function refundLeft(order: Order): number {
  return Math.max(0, cents(order.price) - cents(order.refunded ?? 0)) / 100;
}

/**
 * The customer's Cancel and refund: their own paid order while it has not shipped, and is neither
 * disputed nor refunded (all of which `pending` rules out).
 */
export function canCancelAndRefund(order: Order): boolean {
  return order.paid && order.status === 'pending' && refundLeft(order) > 0;
}

/** An admin's Refund: any paid order with money left, unless its payment is disputed. */
export function canRefund(order: Order): boolean {
  return order.paid && order.status !== 'refunded' && order.status !== 'disputed' && refundLeft(order) > 0;
}

/**
 * Manage Order's shipping cell:
 * - `ship`: the spec's Pending button, which ships (paid, undisputed, not shipped yet);
 * - `unpaid`: the same Pending button, disabled until the order is paid;
 * - `shipped`: Shipped (a click takes it back to Pending) and Delivered;
 * - `delivered`, `disputed`, `refunded`, `expired`: a label, no button.
 */
export type ShippingCell = 'ship' | 'unpaid' | 'shipped' | 'delivered' | 'disputed' | 'refunded' | 'expired';

export function shippingCell(order: Order): ShippingCell {
  switch (order.status) {
    case 'pending':
      return order.paid ? 'ship' : 'unpaid';
    case 'shipped':
    case 'delivered':
    case 'disputed':
    case 'refunded':
    case 'expired':
      return order.status;
  }
}

/** Why the Pending button of an unpaid order is disabled (its accessible description too). */
export const NOT_PAID_YET = 'Not paid yet';

/** "Refunded" once the whole order went back, "Refunded $X" after a part; undefined before any. */
export function refundLabel(order: Order): string | undefined {
  if (order.status === 'refunded') return 'Refunded';
  if (order.refunded && order.refunded > 0) return `Refunded ${formatPrice(order.refunded)}`;
  return undefined;
}

/** Whether the goods left: the last shipping event, for an order whose status no longer says. */
export function lastShipping(order: Order): 'shipped' | 'delivered' | undefined {
  for (const event of [...(order.history ?? [])].reverse()) {
    if (event.event === 'delivered') return 'delivered';
    if (event.event === 'shipped') return 'shipped';
    if (event.event === 'unshipped') return undefined;
  }
  return undefined;
}

/** "UPS 1Z999AA10123456784", "UPS", "1Z999AA10123456784" or undefined. */
export function shipmentOf(order: Pick<Order, 'carrier' | 'trackingNumber'>): string | undefined {
  return [order.carrier, order.trackingNumber].filter(Boolean).join(' ') || undefined;
}

/**
 * An event as a line of the history. No line says only "Paid" or "Refunded": those are the
 * order's labels, and its history sits in the same row.
 */
const EVENT_TEXT: Record<OrderEventKind, string> = {
  placed: 'Order placed',
  paid: 'Payment received',
  shipped: 'Shipped',
  unshipped: 'Shipment taken back: pending again',
  delivered: 'Delivered',
  refunded: 'Refunded',
  partlyRefunded: 'Partly refunded',
  disputed: 'Payment disputed by the card issuer',
  disputeWon: 'Dispute closed: the payment stands',
  disputeLost: 'Dispute lost: the card issuer refunded',
  expired: 'Expired: not paid in time',
};

export function eventText(event: OrderEvent): string {
  const text = EVENT_TEXT[event.event];
  if (event.event === 'shipped' && event.note) return `${text} (${event.note})`;
  if (event.amount != null) return `${text} ${formatPrice(event.amount)}`;
  return text;
}

/** "Nov 27, 2026, 9:41 AM"; the raw text when it is not a date. */
export function eventTime(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  return date.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** The amount field of the refund dialog, as dollars to send, or why not. */
export type RefundAmount = { ok: true; amount: number } | { ok: false; error: string };

export function parseRefundAmount(text: string, left: number): RefundAmount {
  const trimmed = text.trim().replace(/^\$/, '').replace(/,/g, '');
  if (!trimmed) return { ok: false, error: 'Amount is required' };
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return { ok: false, error: 'Amount must be a number' };
  if (!/^\d+(\.\d{1,2})?$/.test(trimmed))
    return { ok: false, error: 'Amount must have at most two decimals' };
  const amount = Number(trimmed);
  if (cents(amount) < 1) return { ok: false, error: 'Amount must be at least $0.01' };
  if (cents(amount) > cents(left)) return { ok: false, error: `Amount must be at most ${formatPrice(left)}` };
  return { ok: true, amount };
}

/** The ship dialog's two optional fields, checked by the API's own rules before they are sent. */
export interface Shipment {
  carrier?: string;
  trackingNumber?: string;
}
export type ShipmentCheck =
  { ok: true; shipment: Shipment } | { ok: false; errors: { carrier?: string; trackingNumber?: string } };

const { carrier: carrierRule, trackingNumber: trackingRule } = shippingStatusInputSchema.shape;

export function checkShipment(fields: { carrier: string; trackingNumber: string }): ShipmentCheck {
  const carrier = fields.carrier.trim();
  const trackingNumber = fields.trackingNumber.trim();
  const errors: { carrier?: string; trackingNumber?: string } = {};
  if (carrier && !carrierRule.safeParse(carrier).success) {
    errors.carrier =
      carrier.length > 60
        ? 'Carrier must be at most 60 characters'
        : 'Carrier must not contain control characters';
  }
  if (trackingNumber && !trackingRule.safeParse(trackingNumber).success) {
    errors.trackingNumber = 'Tracking number must be 1 to 40 letters, digits, spaces or dashes';
  }
  if (errors.carrier || errors.trackingNumber) return { ok: false, errors };
  return {
    ok: true,
    shipment: { ...(carrier ? { carrier } : {}), ...(trackingNumber ? { trackingNumber } : {}) },
  };
}
