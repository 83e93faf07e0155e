import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { Order } from '@motoparts/contracts';
import { Dialog, errorMessage, formatCount, formatPrice } from '@motoparts/state';
import { Field } from '../../../components/form-field';
import { useRefundOrderMutation } from '../api';
import { canRefund, parseRefundAmount, refundLeft } from '../lifecycle';

/** The amount as the field starts and as the admin may type it: 1234.5 → "1234.50". */
const plain = (dollars: number) => dollars.toFixed(2);

function RefundDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const formId = useId();
  const amountId = useId();
  const left = refundLeft(order);
  const [text, setText] = useState(plain(left));
  const [error, setError] = useState<string | undefined>();
  const [refund, refunding] = useRefundOrderMutation();
  const parsed = parseRefundAmount(text, left);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    // What is left, whole: no amount, so the API refunds exactly what remains.
    const whole = Math.round(parsed.amount * 100) === Math.round(left * 100);
    try {
      await refund({
        id: order._id,
        partsId: order.partsId,
        ...(whole ? {} : { amount: parsed.amount }),
      }).unwrap();
      toast.success(`Refunded ${formatPrice(parsed.amount)} of the order for ${order.Parts}.`);
    } catch (err) {
      toast.error(errorMessage(err, 'The refund could not be made. Please try again.'));
    }
    onClose();
  }

  return (
    <Dialog
      title="Refund this order?"
      onClose={onClose}
      busy={refunding.isLoading}
      actions={
        <>
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={refunding.isLoading}>
            Keep it
          </button>
          <button type="submit" form={formId} className="btn" disabled={refunding.isLoading}>
            {refunding.isLoading
              ? 'Working...'
              : parsed.ok
                ? `Yes, refund ${formatPrice(parsed.amount)}`
                : 'Yes, refund'}
          </button>
        </>
      }
    >
      <p className="dash-dialog-what">
        {formatCount(order.qty)} × {order.Parts} for {order.user}, paid {formatPrice(order.price)}
        {order.refunded ? `, of which ${formatPrice(order.refunded)} already refunded` : ''}.
      </p>
      <p className="dash-muted">
        The money goes back to the customer&apos;s card. Refunded whole before it ships, the order does not
        ship and its pieces go back on sale.
      </p>
      <form id={formId} onSubmit={(e) => void submit(e)} noValidate>
        <Field
          id={amountId}
          label="Amount to refund (USD)"
          hint={`At most ${formatPrice(left)}: all that is left, or less for a partial refund.`}
          error={error}
        >
          {(describedBy) => (
            <input
              id={amountId}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                setError(undefined);
              }}
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
      </form>
    </Dialog>
  );
}

/**
 * Manage Order's Refund (docs/product.md#refunds): any paid order that is not disputed and has
 * money left, whole or an amount, after a dialog that says how much.
 */
export function RefundAction({ order }: { order: Order }) {
  const [open, setOpen] = useState(false);
  if (!canRefund(order) && !open) return null;
  return (
    <>
      {canRefund(order) && (
        <button
          type="button"
          className="btn btn-outline"
          aria-label={`Refund order for ${order.Parts} by ${order.user}`}
          onClick={() => setOpen(true)}
        >
          Refund
        </button>
      )}
      {open && <RefundDialog order={order} onClose={() => setOpen(false)} />}
    </>
  );
}
