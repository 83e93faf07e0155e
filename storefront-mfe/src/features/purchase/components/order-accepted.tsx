import { useRef, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import type { Order } from '@motoparts/contracts';
import { Dialog, formatCount, formatPrice } from '@motoparts/state';

/** The order went through: what was ordered, and where to pay for it. */
export function OrderAccepted({
  order,
  onClose,
  opener,
}: {
  order: Order;
  onClose: () => void;
  opener: RefObject<HTMLButtonElement | null>;
}) {
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog
      title="Congratulations!"
      onClose={onClose}
      initialFocus={closeRef}
      // Order now was disabled while the order was placed, so focus had left it: give it back.
      returnFocus={opener}
      actions={
        <>
          <Link className="btn btn-outline" to="/dashboard/myOrder">
            Go to My Order
          </Link>
          <button ref={closeRef} type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      <p>
        Your order for <strong>{order.Parts}</strong> was accepted: {formatCount(order.qty)} pieces for{' '}
        {formatPrice(order.price)}.
      </p>
      <p>You can pay for it from My Order in your dashboard.</p>
    </Dialog>
  );
}
