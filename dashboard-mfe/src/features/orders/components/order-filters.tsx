import { useEffect, useId, useState, type FormEvent } from 'react';
import { ORDER_STATUSES, type OrderStatus } from '@motoparts/contracts';
import type { OrderFilters } from '../api';

/** How each state reads in the filter. */
const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  shipped: 'Shipped',
  delivered: 'Delivered',
  expired: 'Expired',
  refunded: 'Refunded',
  disputed: 'Disputed',
};

/**
 * Manage Order's filters, above its table: the state, paid or not (each applies when chosen) and
 * a search by order id or customer email (applies on Search), with Export for what they keep.
 */
export function OrderFilterBar({
  filters,
  onChange,
  onExport,
  exporting,
}: {
  filters: OrderFilters;
  onChange: (next: OrderFilters) => void;
  onExport: () => void;
  exporting: boolean;
}) {
  const id = useId();
  const [q, setQ] = useState(filters.q ?? '');
  // Back and Forward change the filters in the URL: the search box follows.
  useEffect(() => setQ(filters.q ?? ''), [filters.q]);

  function search(event: FormEvent) {
    event.preventDefault();
    onChange({ ...filters, q: q.trim() || undefined });
  }

  return (
    <form className="dash-filters" role="search" aria-label="Filter orders" onSubmit={search}>
      <div className="form-field">
        <label htmlFor={`${id}-status`}>Status</label>
        <select
          id={`${id}-status`}
          value={filters.status ?? ''}
          onChange={(e) =>
            onChange({ ...filters, status: (e.target.value || undefined) as OrderStatus | undefined })
          }
        >
          <option value="">All</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-paid`}>Payment</label>
        <select
          id={`${id}-paid`}
          value={filters.paid === undefined ? '' : String(filters.paid)}
          onChange={(e) =>
            onChange({ ...filters, paid: e.target.value === '' ? undefined : e.target.value === 'true' })
          }
        >
          <option value="">All</option>
          <option value="true">Paid</option>
          <option value="false">Unpaid</option>
        </select>
      </div>
      <div className="form-field">
        <label htmlFor={`${id}-q`}>Order id or customer email</label>
        <input
          id={`${id}-q`}
          type="search"
          value={q}
          maxLength={254}
          onChange={(e) => setQ(e.target.value)}
        />
      </div>
      <div className="dash-actions">
        <button type="submit" className="btn">
          Search
        </button>
        {(filters.status || filters.paid !== undefined || filters.q) && (
          <button type="button" className="btn btn-outline" onClick={() => onChange({})}>
            Clear filters
          </button>
        )}
        <button type="button" className="btn btn-outline" onClick={onExport} disabled={exporting}>
          {exporting ? 'Exporting...' : 'Export CSV'}
        </button>
      </div>
    </form>
  );
}
