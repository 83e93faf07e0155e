import type { Order } from '@motoparts/contracts';
import { eventText, eventTime } from '../lifecycle';

/**
 * An order's history (docs/product.md#my-order, #manage-order): what happened to it and when,
 * oldest first, behind a "History" disclosure so the row stays one line until it is opened.
 */
export function OrderHistory({ order }: { order: Order }) {
  const events = order.history ?? [];
  if (events.length === 0) return <span className="dash-muted">No history yet</span>;
  return (
    <details className="dash-history">
      <summary>
        History<span className="visually-hidden"> of the order for {order.Parts}</span>
      </summary>
      <ol>
        {events.map((event, i) => (
          // Events are only ever appended, so an index is a stable key.
          <li key={i}>
            {eventText(event)}{' '}
            <time className="dash-muted" dateTime={event.at}>
              {eventTime(event.at)}
            </time>
          </li>
        ))}
      </ol>
    </details>
  );
}
