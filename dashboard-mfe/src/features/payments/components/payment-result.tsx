import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { MESSAGES } from '@motoparts/contracts';

/**
 * After Stripe.js said the card was charged (docs/product.md#payment): the spec's message and
 * the transaction id, then Processing until Stripe has told the shop itself, then Paid.
 */
export function PaymentResult({
  transactionId,
  processing,
  claimFailed,
  paidText,
}: {
  transactionId: string;
  processing: boolean;
  /** The page's report of the payment failed; polling still finds out. */
  claimFailed: boolean;
  /** "Your order is paid." or the like, before the link to My Order. */
  paidText: string;
}) {
  return (
    <div className="dash-success" role="status">
      <p className="dash-success-title">{MESSAGES.paymentDone}</p>
      <p>
        Your transaction id: <code data-testid="transaction-id">{transactionId}</code>
      </p>
      {processing ? (
        <p className="dash-processing">
          <span className="dash-badge dash-badge-processing">Processing</span> Waiting for Stripe to confirm
          the payment to our shop. This usually takes a few seconds.
          {claimFailed && ' (We will keep checking.)'}
        </p>
      ) : (
        <p>
          <span className="dash-badge dash-badge-paid">Paid</span> {paidText}{' '}
          <Link to="/dashboard/myOrder">See My Order</Link>
        </p>
      )}
    </div>
  );
}

/** Opened after the payment was made: Paid and its transaction id, with no card form. */
export function AlreadyPaid({ children, transactionId }: { children: ReactNode; transactionId?: string }) {
  return (
    <div role="status">
      <p>
        <span className="dash-badge dash-badge-paid">Paid</span> {children}
      </p>
      {transactionId && (
        <p>
          Transaction id: <code>{transactionId}</code>
        </p>
      )}
    </div>
  );
}
