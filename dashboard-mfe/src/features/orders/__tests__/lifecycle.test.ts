import type { Order } from '@motoparts/contracts';
import {
  canCancelAndRefund,
  canRefund,
  checkShipment,
  eventText,
  eventTime,
  lastShipping,
  parseRefundAmount,
  refundLabel,
  refundLeft,
  shipmentOf,
  shippingCell,
} from '../lifecycle';

function order(over: Partial<Order> = {}): Order {
  return {
    _id: 'o1',
    partsId: 'p1',
    Parts: 'Chain',
    user: 'rider@motoparts.test',
    userName: 'Rider',
    qty: 100,
    price: 250,
    paid: true,
    status: 'pending',
    transactionId: 'pi_1',
    ...over,
  };
}

const at = '2026-11-27T09:41:00.000Z';

describe('what an order offers after its payment', () => {
  it('offers Cancel and refund only on a paid order that has not shipped', () => {
    expect(canCancelAndRefund(order())).toBe(true);
    expect(canCancelAndRefund(order({ paid: false }))).toBe(false);
    for (const status of ['shipped', 'delivered', 'disputed', 'refunded', 'expired'] as const) {
      expect(canCancelAndRefund(order({ status }))).toBe(false);
    }
    // What an admin's partial refund left can still be cancelled and refunded.
    expect(canCancelAndRefund(order({ refunded: 100 }))).toBe(true);
  });

  it('offers an admin Refund on any paid order with money left, unless disputed or refunded', () => {
    for (const status of ['pending', 'shipped', 'delivered'] as const) {
      expect(canRefund(order({ status }))).toBe(true);
    }
    expect(canRefund(order({ paid: false }))).toBe(false);
    expect(canRefund(order({ status: 'disputed' }))).toBe(false);
    expect(canRefund(order({ status: 'refunded', refunded: 250 }))).toBe(false);
    expect(canRefund(order({ status: 'delivered', refunded: 250 }))).toBe(false);
  });

  it('counts what is left to refund in whole cents', () => {
    expect(refundLeft(order({ price: 0.3, refunded: 0.1 }))).toBe(0.2);
    expect(refundLeft(order({ price: 250 }))).toBe(250);
    expect(refundLeft(order({ price: 250, refunded: 250 }))).toBe(0);
  });

  it('gives Manage Order the spec’s Pending button on every order not shipped, disabled until paid', () => {
    expect(shippingCell(order())).toBe('ship');
    expect(shippingCell(order({ paid: false }))).toBe('unpaid');
    expect(shippingCell(order({ status: 'shipped' }))).toBe('shipped');
    expect(shippingCell(order({ status: 'delivered' }))).toBe('delivered');
    expect(shippingCell(order({ status: 'disputed' }))).toBe('disputed');
    expect(shippingCell(order({ status: 'refunded' }))).toBe('refunded');
    expect(shippingCell(order({ paid: false, status: 'expired' }))).toBe('expired');
  });
});

describe('labels and history', () => {
  it('says Refunded for a whole refund and Refunded $X for a part', () => {
    expect(refundLabel(order())).toBeUndefined();
    expect(refundLabel(order({ status: 'refunded', refunded: 250 }))).toBe('Refunded');
    expect(refundLabel(order({ refunded: 1234.5 }))).toBe('Refunded $1,234.50');
  });

  it('names the shipment by its carrier and tracking number', () => {
    expect(shipmentOf({ carrier: 'UPS', trackingNumber: '1Z999' })).toBe('UPS 1Z999');
    expect(shipmentOf({ trackingNumber: '1Z999' })).toBe('1Z999');
    expect(shipmentOf({})).toBeUndefined();
  });

  it('finds whether the goods had left from the last shipping event', () => {
    const history = (...events: NonNullable<Order['history']>[number]['event'][]) =>
      order({ status: 'refunded', history: events.map((event) => ({ event, at })) });
    expect(lastShipping(history('placed', 'paid', 'refunded'))).toBeUndefined();
    expect(lastShipping(history('placed', 'paid', 'shipped', 'refunded'))).toBe('shipped');
    expect(lastShipping(history('placed', 'paid', 'shipped', 'unshipped', 'refunded'))).toBeUndefined();
    expect(lastShipping(history('placed', 'paid', 'shipped', 'delivered', 'refunded'))).toBe('delivered');
  });

  it('writes each event as a line that never reads as a label alone', () => {
    expect(eventText({ event: 'placed', at })).toBe('Order placed');
    expect(eventText({ event: 'paid', at })).toBe('Payment received');
    expect(eventText({ event: 'shipped', at, note: 'UPS 1Z999' })).toBe('Shipped (UPS 1Z999)');
    expect(eventText({ event: 'shipped', at })).toBe('Shipped');
    expect(eventText({ event: 'refunded', at, amount: 250 })).toBe('Refunded $250.00');
    expect(eventText({ event: 'partlyRefunded', at, amount: 12.5 })).toBe('Partly refunded $12.50');
    expect(eventText({ event: 'disputeLost', at, amount: 250 })).toBe(
      'Dispute lost: the card issuer refunded $250.00',
    );
  });

  it('shows the event’s time as a date and time, or the raw text', () => {
    expect(eventTime(at)).toMatch(/^Nov 27, 2026, \d{1,2}:\d{2}\s?[AP]M$/);
    expect(eventTime('soon')).toBe('soon');
  });
});

describe('the admin dialogs’ fields', () => {
  it('takes a refund amount up to what is left, in dollars and cents', () => {
    expect(parseRefundAmount('250.00', 250)).toEqual({ ok: true, amount: 250 });
    expect(parseRefundAmount(' $1,000.5 ', 2000)).toEqual({ ok: true, amount: 1000.5 });
    expect(parseRefundAmount('', 250)).toEqual({ ok: false, error: 'Amount is required' });
    expect(parseRefundAmount('ten', 250)).toEqual({ ok: false, error: 'Amount must be a number' });
    expect(parseRefundAmount('1.234', 250)).toEqual({
      ok: false,
      error: 'Amount must have at most two decimals',
    });
    expect(parseRefundAmount('0', 250)).toEqual({ ok: false, error: 'Amount must be at least $0.01' });
    expect(parseRefundAmount('250.01', 250)).toEqual({ ok: false, error: 'Amount must be at most $250.00' });
  });

  it('ships with or without a carrier and tracking number, by the API’s rules', () => {
    expect(checkShipment({ carrier: ' ', trackingNumber: '' })).toEqual({ ok: true, shipment: {} });
    expect(checkShipment({ carrier: ' UPS ', trackingNumber: '1Z 999-AA' })).toEqual({
      ok: true,
      shipment: { carrier: 'UPS', trackingNumber: '1Z 999-AA' },
    });
    expect(checkShipment({ carrier: 'x'.repeat(61), trackingNumber: '#1' })).toEqual({
      ok: false,
      errors: {
        carrier: 'Carrier must be at most 60 characters',
        trackingNumber: 'Tracking number must be 1 to 40 letters, digits, spaces or dashes',
      },
    });
  });
});
