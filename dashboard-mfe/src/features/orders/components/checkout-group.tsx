import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'react-toastify';
import { MESSAGES, type Cart } from '@motoparts/contracts';
import { baseApi, errorMessage, formatPrice, partTag, useAppDispatch } from '@motoparts/state';
import { useCancelCheckoutMutation, useOrderCheckoutAgainMutation } from '@motoparts/state/cart';
import { CheckoutLines } from '../../../components/checkout-lines';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { checkoutDate, linesLabel, type CheckoutGroup } from '../checkout-groups';
import { CancelAndRefund } from './cancel-and-refund';
import { OrderHistory } from './order-history';
import { PaidStatus, RefundBadge } from './paid-status';
import { ShipmentStatus } from './shipment-status';

/**
 * Order again's toast: how many of the checkout's lines the cart took back (the API leaves out a
 * line whose part is gone or short of stock, and says so only by its absence from the cart).
 */
function refilledToast(group: CheckoutGroup, cart: Cart): void {
  const back = group.orders.filter((o) =>
    cart.lines.some(
      (line) =>
        line.partId === o.partsId &&
        line.qty === o.qty &&
        // A line already in the cart for a part since gone or short is not back in any usable way.
        line.problem?.code !== 'deleted' &&
        line.problem?.code !== 'stock',
    ),
  ).length;
  const all = group.orders.length;
  if (back === all) {
    toast.success(`${all === 1 ? 'The line is' : `All ${all} lines are`} back in your cart.`);
  } else if (back === 0) {
    toast.warning('None of these lines could go back in your cart: their parts are sold out or gone.');
  } else {
    toast.warning(`${back} of ${all} lines are back in your cart; the others are sold out or gone.`);
  }
}

/**
 * One checkout on My Order (docs/product.md#my-order): its lines under one heading, then one
 * Payment and one Cancel while unpaid, one transaction id once paid, and Order again. Once paid,
 * each line goes its own way, as a single order does: its shipment, its refund (Cancel and refund
 * while it has not shipped) and its history.
 */
export function CheckoutGroupCard({ group }: { group: CheckoutGroup }) {
  const headingId = useId();
  const dispatch = useAppDispatch();
  const [confirming, setConfirming] = useState(false);
  const [cancelCheckout, cancelling] = useCancelCheckoutMutation();
  const [orderAgain, refilling] = useOrderCheckoutAgainMutation();
  const date = checkoutDate(group.createdAt);
  const lines = linesLabel(group.orders.length);
  const title = `Checkout${date ? ` of ${date}` : ''} — ${lines} — ${formatPrice(group.total)}`;

  async function confirmCancel() {
    try {
      await cancelCheckout(group.checkoutId).unwrap();
      // Every line's pieces are back on sale: each part's own page shows its stock too.
      dispatch(baseApi.util.invalidateTags(group.orders.map((o) => partTag(o.partsId))));
      toast.success(`Checkout cancelled: ${lines} back on sale`);
    } catch (err) {
      toast.error(errorMessage(err, 'The checkout could not be cancelled. Please try again.'));
    }
    setConfirming(false);
  }

  async function refill() {
    try {
      refilledToast(group, await orderAgain(group.checkoutId).unwrap());
    } catch (err) {
      toast.error(errorMessage(err, 'The lines could not be put back in your cart. Please try again.'));
    }
  }

  return (
    <section className="card dash-checkout" aria-labelledby={headingId} data-checkout-id={group.checkoutId}>
      <h2 id={headingId}>{title}</h2>
      <CheckoutLines
        orders={group.orders}
        labelledBy={headingId}
        extra={{
          columns: ['Status', 'History'],
          cells: (order) => [
            <div key="status" className="dash-line-status">
              <ShipmentStatus order={order} />
              <RefundBadge order={order} />
              <CancelAndRefund order={order} />
            </div>,
            <OrderHistory key="history" order={order} />,
          ],
        }}
      />
      <div className="dash-checkout-foot">
        {group.state === 'paid' ? (
          <PaidStatus transactionId={group.transactionId} />
        ) : group.state === 'expired' ? (
          <span className="dash-muted" data-testid="checkout-expired">
            Expired: not paid in time, the pieces went back to stock.
          </span>
        ) : (
          <span className="dash-badge dash-badge-unpaid">Unpaid</span>
        )}
        <div className="dash-actions">
          {group.state === 'unpaid' && (
            <>
              <Link className="btn btn-secondary" to={`/dashboard/payment/checkout/${group.checkoutId}`}>
                Payment
              </Link>
              <button type="button" className="btn btn-outline" onClick={() => setConfirming(true)}>
                Cancel checkout
              </button>
            </>
          )}
          <button
            type="button"
            className="btn btn-outline"
            disabled={refilling.isLoading}
            onClick={() => void refill()}
          >
            {refilling.isLoading ? 'Adding...' : 'Order again'}
          </button>
        </div>
      </div>
      {confirming && (
        <ConfirmDialog
          title="Cancel this checkout?"
          confirmLabel="Yes, cancel checkout"
          busy={cancelling.isLoading}
          onConfirm={() => void confirmCancel()}
          onCancel={() => setConfirming(false)}
        >
          <p>{MESSAGES.confirmDelete}</p>
          <p className="dash-muted">
            Every line of it: {lines} for {formatPrice(group.total)}.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
