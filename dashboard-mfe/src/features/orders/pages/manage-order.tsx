import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import { ORDER_STATUSES, type OrderStatus } from '@motoparts/contracts';
import { errorMessage, formatCount, formatPrice } from '@motoparts/state';
import { QueryTable } from '../../../components/query-table';
import { ADMIN_PAGE_SIZE } from '../../../lib/list-page';
import { useExportOrdersMutation, useGetAllOrdersQuery, type AllOrdersArgs, type OrderFilters } from '../api';
import { OrderFilterBar } from '../components/order-filters';
import { OrderHistory } from '../components/order-history';
import { PaidStatus } from '../components/paid-status';
import { RefundAction } from '../components/refund-action';
import { ShippingCell } from '../components/shipping-cell';
import { refundLabel } from '../lifecycle';

/** The page and filters from the URL's query (`?status=&paid=&q=&page=`); anything else is ignored. */
function listOf(params: URLSearchParams): AllOrdersArgs {
  const status = params.get('status');
  const paid = params.get('paid');
  const q = params.get('q');
  const page = Number(params.get('page'));
  return {
    page: Number.isInteger(page) && page > 1 ? page : 1,
    ...(status && (ORDER_STATUSES as readonly string[]).includes(status)
      ? { status: status as OrderStatus }
      : {}),
    ...(paid === 'true' || paid === 'false' ? { paid: paid === 'true' } : {}),
    ...(q ? { q } : {}),
  };
}

/** The URL's query for a page and filters (page 1 and unset filters left out). */
function paramsOf({ page, status, paid, q }: AllOrdersArgs): Record<string, string> {
  return {
    ...(status ? { status } : {}),
    ...(paid !== undefined ? { paid: String(paid) } : {}),
    ...(q ? { q } : {}),
    ...(page > 1 ? { page: String(page) } : {}),
  };
}

/**
 * docs/product.md#manage-order (admin): every order, filtered by state and searched by order id
 * or customer email (kept in the URL, so Back returns to the previous filters), and exported as
 * CSV. The spec's Pending label is a button that
 * ships the order (paid orders only; an unpaid one's is disabled, saying why), stored by the API;
 * a shipped order is marked delivered, or taken back to Pending before that. Paid orders can be
 * refunded, whole or in part, and each order's history is one disclosure away.
 */
export default function ManageOrder() {
  const [params, setParams] = useSearchParams();
  const list = useMemo(() => listOf(params), [params]);
  const { page, ...filters } = list;
  const filtered = !!(filters.status || filters.paid !== undefined || filters.q);
  const orders = useGetAllOrdersQuery(list);
  const [exportOrders, exporting] = useExportOrdersMutation();
  const show = (next: AllOrdersArgs) => setParams(paramsOf(next));

  async function exportFiltered() {
    try {
      await exportOrders(filters).unwrap();
    } catch (err) {
      toast.error(errorMessage(err, 'The orders could not be exported. Please try again.'));
    }
  }

  return (
    <section aria-labelledby="manage-order-title">
      <h1 id="manage-order-title">Manage Order</h1>
      <OrderFilterBar
        filters={filters}
        onChange={(next: OrderFilters) => show({ ...next, page: 1 })}
        onExport={() => void exportFiltered()}
        exporting={exporting.isLoading}
      />
      <QueryTable
        query={orders}
        rows={orders.currentData?.items}
        what="orders"
        empty={filtered ? 'No orders match these filters.' : 'No orders yet.'}
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
              <ShippingCell order={order} list={list} />
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
          onPage: (p: number) => show({ ...filters, page: p }),
        }}
      />
    </section>
  );
}
