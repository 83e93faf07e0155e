import type { Order } from '@motoparts/contracts';
import { lastShipping, shipmentOf } from '../lifecycle';

/** The carrier and tracking number of a shipment, when the admin gave them. */
export function ShipmentNote({ order }: { order: Order }) {
  const shipment = shipmentOf(order);
  if (!shipment) return null;
  return (
    <span className="dash-muted dash-shipment">
      Tracking: <span className="dash-tracking">{shipment}</span>
    </span>
  );
}

/**
 * Where the customer's goods stand (My Order): Pending until the shop ships, then Shipped with the
 * carrier and tracking number, then Delivered; a disputed payment holds the order; a refunded
 * order says whether its goods had left.
 */
export function ShipmentStatus({ order }: { order: Order }) {
  switch (order.status) {
    case 'pending':
      return <span className="dash-badge dash-badge-pending">Pending</span>;
    case 'shipped':
    case 'delivered':
      return (
        <div className="dash-shipping">
          <span className="dash-badge dash-badge-shipped">
            {order.status === 'shipped' ? 'Shipped' : 'Delivered'}
          </span>
          <ShipmentNote order={order} />
        </div>
      );
    case 'disputed':
      return (
        <div className="dash-shipping">
          <span className="dash-badge dash-badge-unpaid">Disputed</span>
          <span className="dash-muted">Your card issuer is reviewing the payment; the order waits.</span>
        </div>
      );
    case 'refunded': {
      const left = lastShipping(order);
      return (
        <span className="dash-muted">
          {left === 'delivered'
            ? 'Delivered before the refund'
            : left
              ? 'Shipped before the refund'
              : 'Not shipped'}
        </span>
      );
    }
    case 'expired':
      return <span className="dash-muted">Not shipped</span>;
  }
}
