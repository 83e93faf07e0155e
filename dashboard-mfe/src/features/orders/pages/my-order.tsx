import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'react-toastify';
import { MESSAGES, type Order } from '@motoparts/contracts';
import { errorMessage, formatCount, formatPrice, selectSessionUser, useAppSelector } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryTable } from '../../../components/query-table';
import { useCancelOrderMutation, useGetMyOrdersQuery } from '../api';
import { groupOrders } from '../checkout-groups';
import { CancelAndRefund } from '../components/cancel-and-refund';
import { CheckoutGroupCard } from '../components/checkout-group';
import { OrderHistory } from '../components/order-history';
import { PaidStatus } from '../components/paid-status';
import { ShipmentStatus } from '../components/shipment-status';
import { refundLabel } from '../lifecycle';

/**
 * docs/product.md#my-order: the signed-in customer's orders; pay or cancel unpaid ones, cancel and
 * refund paid ones that have not shipped, follow the shipment and each order's history. The lines
 * of a checkout are shown together, each checkout under its own heading, above the orders placed
 * one by one (whose rows are the spec's).
 */
export default function MyOrder() {
  const email = useAppSelector(selectSessionUser)?.email ?? '';
  // A 401/403 here signs the user out (the endpoint's extraOptions); the shell then sends them to /login.
  const orders = useGetMyOrdersQuery(email, { skip: !email });
  const [cancelOrder, cancelling] = useCancelOrderMutation();
  const [toCancel, setToCancel] = useState<Order | null>(null);
  const { checkouts, singles } = useMemo(() => groupOrders(orders.data ?? []), [orders.data]);

  async function confirmCancel() {
    if (!toCancel) return;
    try {
      await cancelOrder({ id: toCancel._id, partsId: toCancel.partsId }).unwrap();
      toast.success(`Order for ${toCancel.Parts} cancelled`);
      setToCancel(null);
    } catch (err) {
      toast.error(errorMessage(err, 'The order could not be cancelled. Please try again.'));
      setToCancel(null);
    }
  }

  return (
    <section aria-labelledby="my-order-title">
      <h1 id="my-order-title">My Order</h1>
      {checkouts.map((group) => (
        <CheckoutGroupCard key={group.checkoutId} group={group} />
      ))}
      {checkouts.length > 0 && singles.length > 0 && <h2 className="dash-subtitle">Single orders</h2>}
      <QueryTable
        query={orders}
        rows={orders.data && singles}
        what="your orders"
        errorWhat="your orders"
        empty={
          checkouts.length > 0 ? null : (
            <>
              You have no orders yet. <Link to="/parts">Browse the parts</Link> to place one.
            </>
          )
        }
        label="My orders table"
        columns={['Part', 'Quantity', 'Price', 'Payment', 'Shipping', 'History']}
        renderRow={(order) => (
          <tr key={order._id} data-order-id={order._id}>
            <th scope="row">{order.Parts}</th>
            <td>{formatCount(order.qty)}</td>
            <td>{formatPrice(order.price)}</td>
            <td>
              {order.paid ? (
                <div className="dash-paid-cell">
                  <PaidStatus transactionId={order.transactionId} refund={refundLabel(order)} />
                  <CancelAndRefund order={order} />
                </div>
              ) : order.status === 'expired' ? (
                <span className="dash-muted" data-testid="order-expired">
                  Expired: not paid in time, the pieces went back to stock.
                </span>
              ) : (
                <div className="dash-actions">
                  <Link className="btn btn-secondary" to={`/dashboard/payment/${order._id}`}>
                    Payment
                  </Link>
                  <button type="button" className="btn btn-outline" onClick={() => setToCancel(order)}>
                    Cancel order
                  </button>
                </div>
              )}
            </td>
            <td>
              <ShipmentStatus order={order} />
            </td>
            <td>
              <OrderHistory order={order} />
            </td>
          </tr>
        )}
      />
      {toCancel && (
        <ConfirmDialog
          title="Cancel this order?"
          confirmLabel="Yes, cancel order"
          busy={cancelling.isLoading}
          onConfirm={() => void confirmCancel()}
          onCancel={() => setToCancel(null)}
        >
          <p>{MESSAGES.confirmDelete}</p>
          <p className="dash-muted">
            {formatCount(toCancel.qty)} × {toCancel.Parts} ({formatPrice(toCancel.price)})
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
