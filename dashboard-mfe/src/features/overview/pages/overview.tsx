import { lazy, Suspense, useState, type ReactNode } from 'react';
import { toast } from 'react-toastify';
import { SALES_STATES, SALES_WINDOWS, type Sales, type SalesState } from '@motoparts/contracts';
import { errorMessage, formatCount, formatPrice, injectStyles } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryTable } from '../../../components/query-table';
import { LoadError, Loading } from '../../../components/status';
import { useGetSalesQuery, useReleaseOrderMutation } from '../api';
import { dayLabel, stateLabel } from '../labels';
import css from '../overview.css';

injectStyles('dashboard-overview-styles', css);

// The chart library is its own chunk, fetched by this page only (docs/build.md).
const RevenueChart = lazy(() => import('../components/revenue-chart'));

type Held = Sales['held'][number];
type HeldOrder = Held['orders'][number];

/** Manage Products' restock form, handed in by app/ (a feature does not import another). */
export type RestockSlot = (part: { _id: string; name: string }, onRestocked: () => void) => ReactNode;

/** The figures are already there: the tables need no loading or error lines of their own. */
const SHOWN = { isFetching: false, isError: false, refetch: () => undefined };

/**
 * docs/product.md (admin): how the shop is doing over the last 30 or 90 days (revenue per day, as a
 * chart and a table), orders by state, the parts that earned most, parts to restock and pieces
 * unpaid orders hold, each with its action; the figures reload after every action.
 */
export default function Overview({ restock }: { restock: RestockSlot }) {
  const [days, setDays] = useState<number>(SALES_WINDOWS[0]);
  const sales = useGetSalesQuery(days, { refetchOnMountOrArgChange: true });
  const [release, releasing] = useReleaseOrderMutation();
  const [toRelease, setToRelease] = useState<{ part: Held; order: HeldOrder } | null>(null);
  const data = sales.currentData;
  const reload = () => void sales.refetch();

  async function confirmRelease() {
    if (!toRelease) return;
    const { part, order } = toRelease;
    try {
      await release({
        orderId: order.orderId,
        partId: part.partId,
        ...(order.checkoutId ? { checkoutId: order.checkoutId } : {}),
      }).unwrap();
      toast.success(`Released ${formatCount(order.qty)} pcs of ${part.name}: back on sale`);
    } catch (err) {
      toast.error(errorMessage(err, 'The order could not be released. Please try again.'));
    }
    setToRelease(null);
    reload();
  }

  return (
    <section aria-labelledby="overview-title" className="dash-overview">
      <h1 id="overview-title">Overview</h1>
      <div className="dash-period" role="group" aria-label="Period">
        {SALES_WINDOWS.map((n) => (
          <button
            key={n}
            type="button"
            className={n === days ? 'btn' : 'btn btn-outline'}
            aria-pressed={n === days}
            onClick={() => setDays(n)}
          >
            Last {n} days
          </button>
        ))}
      </div>
      {!data && sales.isFetching && <Loading what="the figures" />}
      {sales.isError && <LoadError error={sales.error} what="the figures" onRetry={reload} />}
      {data && (
        <>
          <p className="dash-overview-total" aria-live="polite">
            Revenue in the last {data.days} days: <strong>{formatPrice(data.revenue)}</strong>{' '}
            <span className="dash-muted">(days in {data.timeZone}, net of refunds)</span>
          </p>

          <h2 id="revenue-title">Revenue per day</h2>
          <Suspense fallback={<Loading what="the chart" />}>
            <RevenueChart days={data.revenueByDay} />
          </Suspense>
          <details className="dash-chart-table">
            <summary>Revenue per day as a table</summary>
            <QueryTable
              query={SHOWN}
              rows={data.revenueByDay}
              what="revenue"
              label="Revenue per day"
              columns={['Day', 'Revenue']}
              renderRow={(d) => (
                <tr key={d.date} data-date={d.date}>
                  <th scope="row">{dayLabel(d.date)}</th>
                  <td data-testid="day-revenue">{formatPrice(d.revenue)}</td>
                </tr>
              )}
            />
          </details>

          <h2>Orders by state</h2>
          <p className="dash-muted">Orders placed in the last {data.days} days, by where they stand now.</p>
          <QueryTable
            query={SHOWN}
            rows={SALES_STATES.map((s): [SalesState, number] => [s, data.ordersByStatus[s] ?? 0])}
            what="orders"
            label="Orders by state"
            columns={['State', 'Orders']}
            renderRow={([state, n]) => (
              <tr key={state} data-state={state}>
                <th scope="row">{stateLabel(state)}</th>
                <td>{formatCount(n)}</td>
              </tr>
            )}
          />

          <h2>Top 10 parts by revenue</h2>
          <QueryTable
            query={SHOWN}
            rows={data.topParts}
            what="parts"
            empty={`Nothing sold in the last ${data.days} days.`}
            label="Top parts by revenue"
            columns={['Part', 'Pieces sold', 'Revenue']}
            renderRow={(p) => (
              <tr key={p.partId} data-part-id={p.partId}>
                <th scope="row">{p.name}</th>
                <td>{formatCount(p.qty)}</td>
                <td>{formatPrice(p.revenue)}</td>
              </tr>
            )}
          />

          <h2>Sold out and running low</h2>
          {data.lowStockCount > data.lowStock.length && (
            <p className="dash-muted">
              The {formatCount(data.lowStock.length)} with the least left of {formatCount(data.lowStockCount)}
              .
            </p>
          )}
          <QueryTable
            query={SHOWN}
            rows={data.lowStock}
            what="parts"
            empty="Every part has stock for at least three minimum orders."
            label="Parts to restock"
            columns={['Part', 'State', 'In stock', 'Minimum order', 'Restock']}
            renderRow={(p) => (
              <tr key={p.partId} data-part-id={p.partId}>
                <th scope="row">{p.name}</th>
                <td>
                  <span
                    className={`dash-badge ${p.level === 'soldOut' ? 'dash-badge-unpaid' : 'dash-badge-pending'}`}
                  >
                    {p.level === 'soldOut' ? 'Sold out' : 'Running low'}
                  </span>
                </td>
                <td data-testid="stock">{formatCount(p.availableQty)}</td>
                <td>{formatCount(p.minQty)}</td>
                <td>{restock({ _id: p.partId, name: p.name }, reload)}</td>
              </tr>
            )}
          />

          <h2>Pieces held by unpaid orders</h2>
          <p className="dash-muted">
            Until paid, an order holds its pieces; Release cancels it and puts them back on sale.
            {data.heldCount > data.held.length &&
              ` The ${formatCount(data.held.length)} parts with the most pieces held, of ${formatCount(data.heldCount)}.`}
          </p>
          <QueryTable
            query={SHOWN}
            rows={data.held.flatMap((part) => part.orders.map((order) => ({ part, order })))}
            what="orders"
            empty="No unpaid order holds any pieces."
            label="Pieces held by unpaid orders"
            columns={['Part', 'Customer', 'Pieces', 'Placed', 'Release']}
            renderRow={({ part, order }) => (
              <tr key={order.orderId} data-order-id={order.orderId}>
                <th scope="row">
                  {part.name}
                  <span className="dash-muted dash-held-total">
                    {formatCount(part.pieces)} pcs held by {formatCount(part.orderCount)}{' '}
                    {part.orderCount === 1 ? 'order' : 'orders'}
                  </span>
                </th>
                <td className="dash-email">{order.user}</td>
                <td>{formatCount(order.qty)}</td>
                <td>{new Date(order.placedAt).toLocaleString()}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-outline"
                    aria-label={`Release ${formatCount(order.qty)} pcs of ${part.name} held by ${order.user}`}
                    onClick={() => setToRelease({ part, order })}
                  >
                    Release
                  </button>
                </td>
              </tr>
            )}
          />
        </>
      )}
      {toRelease && (
        <ConfirmDialog
          title="Release these pieces?"
          confirmLabel="Yes, release"
          busy={releasing.isLoading}
          onConfirm={() => void confirmRelease()}
          onCancel={() => setToRelease(null)}
        >
          <p>
            The unpaid order of {toRelease.order.user} for {formatCount(toRelease.order.qty)} pcs of{' '}
            {toRelease.part.name} is cancelled and its pieces go back on sale.
          </p>
          {toRelease.order.checkoutId && (
            <p className="dash-muted">
              It is a line of checkout {toRelease.order.checkoutId}: the whole checkout is cancelled.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
