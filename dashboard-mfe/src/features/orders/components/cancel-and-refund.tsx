import { useState } from 'react';
import { toast } from 'react-toastify';
import { MESSAGES, type Order } from '@motoparts/contracts';
import { errorMessage, formatCount, formatPrice } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useRefundOrderMutation } from '../api';
import { canCancelAndRefund, refundLeft } from '../lifecycle';

/**
 * My Order's Cancel and refund (docs/product.md#my-order): a paid order that has not shipped is
 * cancelled and its money goes back to the card, after a confirmation. A line of a checkout is
 * refunded alone; the checkout's other lines stay. Renders nothing for an order that cannot.
 */
export function CancelAndRefund({ order }: { order: Order }) {
  const [confirming, setConfirming] = useState(false);
  const [refund, refunding] = useRefundOrderMutation();
  if (!canCancelAndRefund(order) && !confirming) return null;
  const amount = formatPrice(refundLeft(order));

  async function confirm() {
    try {
      await refund({ id: order._id, partsId: order.partsId }).unwrap();
      toast.success(`Order for ${order.Parts} cancelled: ${amount} goes back to your card.`);
    } catch (err) {
      toast.error(errorMessage(err, 'The order could not be cancelled and refunded. Please try again.'));
    }
    setConfirming(false);
  }

  return (
    <>
      {canCancelAndRefund(order) && (
        <button type="button" className="btn btn-outline" onClick={() => setConfirming(true)}>
          Cancel and refund
        </button>
      )}
      {confirming && (
        <ConfirmDialog
          title="Cancel and refund this order?"
          confirmLabel="Yes, cancel and refund"
          busy={refunding.isLoading}
          onConfirm={() => void confirm()}
          onCancel={() => setConfirming(false)}
        >
          <p>{MESSAGES.confirmDelete}</p>
          <p className="dash-muted">
            {formatCount(order.qty)} × {order.Parts}: the order is cancelled, its pieces go back on sale and{' '}
            {amount} goes back to the card it was paid with
            {order.checkoutId ? '; the other lines of its checkout stay' : ''}.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
