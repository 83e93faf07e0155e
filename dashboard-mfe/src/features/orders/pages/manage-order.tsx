import { useState } from 'react';
import { toast } from 'react-toastify';
import type { Order, ShippingStatus } from '@motoparts/contracts';
import { errorMessage, formatCount, formatPrice } from '@motoparts/state';
import { QueryTable } from '../../../components/query-table';
import { ADMIN_PAGE_SIZE } from '../../../lib/list-page';
import { useGetAllOrdersQuery, useSetShippingStatusMutation } from '../api';
import { PaidStatus } from '../components/paid-status';

const LABEL: Record<ShippingStatus, string> = { pending: 'Pending', shipped: 'Shipped' };

/**
 * docs/product.md (admin): every order. The Pending/Shipped label is a button that toggles the shipping
 * status; unlike the original it is stored by the API, so it survives a reload.
 */
export default function ManageOrder() {
  const [page, setPage] = useState(1);
  const orders = useGetAllOrdersQuery(page);
  const [setStatus] = useSetShippingStatusMutation();

  async function toggle(order: Order) {
    const next: ShippingStatus = order.status === 'shipped' ? 'pending' : 'shipped';
    try {
      await setStatus({ id: order._id, status: next, page }).unwrap();
    } catch (err) {
      toast.error(errorMessage(err, 'The shipping status could not be saved. Please try again.'));
    }
  }

  return (
    <section aria-labelledby="manage-order-title">
      <h1 id="manage-order-title">Manage Order</h1>
      <QueryTable
        query={orders}
        rows={orders.currentData?.items}
        what="orders"
        empty="No orders yet."
        label="All orders table"
        columns={['Buyer', 'Part', 'Quantity', 'Price', 'Payment', 'Shipping']}
        renderRow={(order) => (
          <tr key={order._id} data-order-id={order._id}>
            <td className="dash-buyer">
              <div>{order.userName || order.user}</div>
              {order.userName && <div className="dash-muted">{order.user}</div>}
            </td>
            <th scope="row">{order.Parts}</th>
            <td>{formatCount(order.qty)}</td>
            <td>{formatPrice(order.price)}</td>
            <td>
              {order.paid ? (
                <PaidStatus transactionId={order.transactionId} />
              ) : (
                <span className="dash-badge dash-badge-unpaid">Unpaid</span>
              )}
            </td>
            <td>
              {order.status === 'expired' ? (
                <span className="dash-muted" data-testid="order-expired">
                  Expired (not paid in time)
                </span>
              ) : (
                <button
                  type="button"
                  className={`btn dash-status-toggle ${order.status === 'shipped' ? 'is-shipped' : 'is-pending'}`}
                  aria-label={`${LABEL[order.status]}: mark order for ${order.Parts} by ${order.user} as ${
                    order.status === 'shipped' ? 'pending' : 'shipped'
                  }`}
                  onClick={() => void toggle(order)}
                >
                  {LABEL[order.status]}
                </button>
              )}
            </td>
          </tr>
        )}
        pager={{
          page,
          total: orders.currentData?.total ?? 0,
          pageSize: ADMIN_PAGE_SIZE,
          label: 'Order pages',
          onPage: setPage,
        }}
      />
    </section>
  );
}
