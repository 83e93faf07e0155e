import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'react-toastify';
import { MESSAGES, type Order } from '@motoparts/contracts';
import { errorMessage, selectSessionUser, useAppSelector } from '@motoparts/state';
import { useCancelOrderMutation, useGetMyOrdersQuery } from '../api/dashboard-api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { LoadError, Loading } from '../components/status';
import { formatPrice } from '../features/payment-state';

/** SPEC §2: the signed-in customer's orders; pay or cancel unpaid ones. */
export default function MyOrder() {
  const email = useAppSelector(selectSessionUser)?.email ?? '';
  // A 401/403 here signs the user out (the endpoint's extraOptions); the shell then sends them to /login.
  const orders = useGetMyOrdersQuery(email, { skip: !email });
  const [cancelOrder, cancelling] = useCancelOrderMutation();
  const [toCancel, setToCancel] = useState<Order | null>(null);

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
      {orders.isLoading && <Loading what="your orders" />}
      {orders.isError && (
        <LoadError error={orders.error} what="your orders" onRetry={() => void orders.refetch()} />
      )}
      {orders.data && orders.data.length === 0 && (
        <p className="card">
          You have no orders yet. <Link to="/">Browse the parts</Link> to place one.
        </p>
      )}
      {orders.data && orders.data.length > 0 && (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="My orders table">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Part</th>
                <th scope="col">Quantity</th>
                <th scope="col">Price</th>
                <th scope="col">Payment</th>
              </tr>
            </thead>
            <tbody>
              {orders.data.map((order) => (
                <tr key={order._id} data-order-id={order._id}>
                  <th scope="row">{order.Parts}</th>
                  <td>{order.qty.toLocaleString('en-US')}</td>
                  <td>{formatPrice(order.price)}</td>
                  <td>
                    {order.paid ? (
                      <div className="dash-paid">
                        <span className="dash-badge dash-badge-paid">Paid</span>
                        <span className="dash-txn">
                          Transaction id: <code>{order.transactionId}</code>
                        </span>
                      </div>
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
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
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
            {toCancel.qty.toLocaleString('en-US')} × {toCancel.Parts} ({formatPrice(toCancel.price)})
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
