import type { Order } from '@motoparts/contracts';
import { refundLabel } from '../lifecycle';

/**
 * docs/product.md: a paid order shows Paid and its transaction id (My Order and Manage Order alike). The
 * API records the id whenever it marks an order paid, so it is missing only on data from elsewhere.
 * A refund shows under it: "Refunded" once the whole order went back, "Refunded $X" after a part.
 */
export function PaidStatus({
  transactionId,
  refund,
}: {
  transactionId?: string | undefined;
  refund?: string | undefined;
}) {
  return (
    <div className="dash-paid">
      <span className="dash-badge dash-badge-paid">Paid</span>
      {transactionId && (
        <span className="dash-txn">
          Transaction id: <code>{transactionId}</code>
        </span>
      )}
      {refund && <span className="dash-badge dash-badge-refunded">{refund}</span>}
    </div>
  );
}

/** "Refunded" or "Refunded $X" (docs/product.md#refunds), or nothing before any refund. */
export function RefundBadge({ order }: { order: Order }) {
  const label = refundLabel(order);
  return label ? <span className="dash-badge dash-badge-refunded">{label}</span> : null;
}
