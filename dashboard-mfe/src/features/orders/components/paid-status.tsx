/**
 * docs/product.md: a paid order shows Paid and its transaction id (My Order and Manage Order alike). The
 * API records the id whenever it marks an order paid, so it is missing only on data from elsewhere.
 */
export function PaidStatus({ transactionId }: { transactionId?: string | undefined }) {
  return (
    <div className="dash-paid">
      <span className="dash-badge dash-badge-paid">Paid</span>
      {transactionId && (
        <span className="dash-txn">
          Transaction id: <code>{transactionId}</code>
        </span>
      )}
    </div>
  );
}
