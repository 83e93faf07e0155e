import type { ReactNode } from 'react';
import type { Order } from '@motoparts/contracts';
import { formatCount, formatPrice } from '@motoparts/state';

const LINE_COLUMNS = ['Part', 'Quantity', 'Price'] as const;

/**
 * A checkout's lines as a table: part, quantity and price, then any `extra` columns (My Order's
 * status and history). Each cell carries its column's name for the narrow layout's stacked rows.
 */
export function CheckoutLines({
  orders,
  labelledBy,
  className = 'table',
  extra,
}: {
  orders: Order[];
  /** The id of the heading that names the table. */
  labelledBy: string;
  className?: string;
  extra?: { columns: string[]; cells: (order: Order) => ReactNode[] };
}) {
  const columns = [...LINE_COLUMNS, ...(extra?.columns ?? [])];
  return (
    <table className={className} aria-labelledby={labelledBy}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {orders.map((order) => (
          <tr key={order._id} data-order-id={order._id}>
            <th scope="row" data-label={LINE_COLUMNS[0]}>
              {order.Parts}
            </th>
            <td data-label={LINE_COLUMNS[1]}>{formatCount(order.qty)}</td>
            <td data-label={LINE_COLUMNS[2]}>{formatPrice(order.price)}</td>
            {extra?.cells(order).map((cell, i) => (
              <td key={extra.columns[i]} data-label={extra.columns[i]}>
                {cell}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
