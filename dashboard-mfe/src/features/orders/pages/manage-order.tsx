import { useState } from 'react';
import { formatCount, formatPrice } from '@motoparts/state';
import { QueryTable } from '../../../components/query-table';
import { ADMIN_PAGE_SIZE } from '../../../lib/list-page';
import { useGetAllOrdersQuery } from '../api';
import { OrderHistory } from '../components/order-history';
import { PaidStatus } from '../components/paid-status';
import { RefundAction } from '../components/refund-action';
import { ShippingCell } from '../components/shipping-cell';
import { refundLabel } from '../lifecycle';

/**
 * docs/product.md#manage-order (admin): every order. The spec's Pending label is a button that
 * ships the order (paid orders only; an unpaid one's is disabled, saying why), stored by the API;
 * a shipped order is marked delivered, or taken back to Pending before that. Paid orders can be
 * refunded, whole or in part, and each order's history is one disclosure away.
 */
export default function ManageOrder() {
  const [page, setPage] = useState(1);
  const orders = useGetAllOrdersQuery(page);

  return (
    <section aria-labelledby="manage-order-title">
      <h1 id="manage-order-title">Manage Order</h1>
      <QueryTable
        query={orders}
        rows={orders.currentData?.items}
        what="orders"
        empty="No orders yet."
        label="All orders table"
        columns={['Buyer', 'Part', 'Quantity', 'Price', 'Payment', 'Shipping', 'History']}
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
                <div className="dash-paid-cell">
                  <PaidStatus transactionId={order.transactionId} refund={refundLabel(order)} />
                  <RefundAction order={order} />
                </div>
              ) : (
                <span className="dash-badge dash-badge-unpaid">Unpaid</span>
              )}
            </td>
            <td>
              <ShippingCell order={order} page={page} />
            </td>
            <td>
              <OrderHistory order={order} />
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
