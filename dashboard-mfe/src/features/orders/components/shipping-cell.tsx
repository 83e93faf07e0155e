import { useId, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import type { Order, ShippingStatusInput } from '@motoparts/contracts';
import { Dialog, errorMessage, formatCount } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { Field } from '../../../components/form-field';
import { useSetShippingStatusMutation, type AllOrdersArgs } from '../api';
import { checkShipment, lastShipping, NOT_PAID_YET, shippingCell, type Shipment } from '../lifecycle';
import { ShipmentNote } from './shipment-status';

const buyerOf = (order: Order) => (order.userName ? `${order.userName} (${order.user})` : order.user);

/**
 * Pending → Shipped: the spec's click on Pending, then this dialog, where the carrier and the
 * tracking number may be given or left empty ("Mark as shipped" right away ships without them).
 */
function ShipDialog({
  order,
  busy,
  onShip,
  onCancel,
}: {
  order: Order;
  busy: boolean;
  onShip: (shipment: Shipment) => void;
  onCancel: () => void;
}) {
  const formId = useId();
  const carrierId = useId();
  const trackingId = useId();
  const [carrier, setCarrier] = useState('');
  const [trackingNumber, setTrackingNumber] = useState('');
  const [errors, setErrors] = useState<{ carrier?: string; trackingNumber?: string }>({});

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkShipment({ carrier, trackingNumber });
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    onShip(checked.shipment);
  }

  return (
    <Dialog
      title="Ship this order?"
      onClose={onCancel}
      busy={busy}
      actions={
        <>
          <button type="button" className="btn btn-outline" onClick={onCancel} disabled={busy}>
            Keep it pending
          </button>
          <button type="submit" form={formId} className="btn" disabled={busy}>
            {busy ? 'Working...' : 'Mark as shipped'}
          </button>
        </>
      }
    >
      <p className="dash-dialog-what">
        {formatCount(order.qty)} × {order.Parts} for {buyerOf(order)}.
      </p>
      <p className="dash-muted">The carrier and the tracking number are optional; the customer sees them.</p>
      <form id={formId} onSubmit={submit} noValidate>
        <Field id={carrierId} label="Carrier (optional)" error={errors.carrier}>
          {(describedBy) => (
            <input
              id={carrierId}
              value={carrier}
              onChange={(e) => {
                setCarrier(e.target.value);
                setErrors(({ trackingNumber: kept }) => ({ trackingNumber: kept }));
              }}
              maxLength={120}
              autoComplete="off"
              aria-invalid={errors.carrier ? true : undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <Field id={trackingId} label="Tracking number (optional)" error={errors.trackingNumber}>
          {(describedBy) => (
            <input
              id={trackingId}
              value={trackingNumber}
              onChange={(e) => {
                setTrackingNumber(e.target.value);
                setErrors(({ carrier: kept }) => ({ carrier: kept }));
              }}
              maxLength={80}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={errors.trackingNumber ? true : undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
      </form>
    </Dialog>
  );
}

type Asking = 'ship' | 'unship' | 'deliver' | null;

/**
 * Manage Order's shipping cell (docs/product.md#manage-order): the spec's Pending button on every
 * order that has not shipped (disabled, saying why, until it is paid), which ships it; Shipped,
 * which takes the shipment back before delivery; Mark delivered; and the labels of the orders that
 * no longer move (delivered, disputed, refunded, expired). Every move is stored by the API, which
 * refuses with a reason (409) what it does not allow; the reason is shown in a toast.
 */
export function ShippingCell({ order, list }: { order: Order; list: AllOrdersArgs }) {
  const reasonId = useId();
  const [asking, setAsking] = useState<Asking>(null);
  const [setStatus, saving] = useSetShippingStatusMutation();
  // The status button stays the same element from Pending to Shipped and back (first in the
  // cell either way), so the dialog gives the focus back to it, now saying the new state.
  const who = `order for ${order.Parts} by ${order.user}`;
  const cell = shippingCell(order);

  async function save(input: ShippingStatusInput) {
    try {
      await setStatus({ id: order._id, list, ...input }).unwrap();
    } catch (err) {
      toast.error(errorMessage(err, 'The shipping status could not be saved. Please try again.'));
    }
    setAsking(null);
  }

  let content;
  switch (cell) {
    case 'ship':
    case 'unpaid':
      content = (
        <>
          <button
            type="button"
            className="btn dash-status-toggle is-pending"
            aria-label={`Pending: mark ${who} as shipped`}
            disabled={cell === 'unpaid'}
            aria-describedby={cell === 'unpaid' ? reasonId : undefined}
            onClick={() => setAsking('ship')}
          >
            Pending
          </button>
          {cell === 'unpaid' && (
            <span id={reasonId} className="dash-muted">
              {NOT_PAID_YET}
            </span>
          )}
        </>
      );
      break;
    case 'shipped':
      content = (
        <>
          <button
            type="button"
            className="btn dash-status-toggle is-shipped"
            aria-label={`Shipped: mark ${who} as pending`}
            onClick={() => setAsking('unship')}
          >
            Shipped
          </button>
          <ShipmentNote order={order} />
          <button
            type="button"
            className="btn btn-outline"
            aria-label={`Mark ${who} as delivered`}
            onClick={() => setAsking('deliver')}
          >
            Mark delivered
          </button>
        </>
      );
      break;
    case 'delivered':
      content = (
        <>
          <span className="dash-badge dash-badge-shipped">Delivered</span>
          <ShipmentNote order={order} />
        </>
      );
      break;
    case 'disputed':
      content = (
        <>
          <span className="dash-badge dash-badge-unpaid">Disputed</span>
          <span className="dash-muted">Cannot ship until the dispute is closed.</span>
        </>
      );
      break;
    case 'refunded': {
      const left = lastShipping(order);
      content = (
        <span className="dash-muted">
          {left === 'delivered'
            ? 'Delivered before the refund'
            : left
              ? 'Shipped before the refund'
              : 'Not shipped (refunded)'}
        </span>
      );
      break;
    }
    case 'expired':
      content = (
        <span className="dash-muted" data-testid="order-expired">
          Expired (not paid in time)
        </span>
      );
      break;
  }

  return (
    <div className="dash-shipping">
      {content}
      {asking === 'ship' && (
        <ShipDialog
          order={order}
          busy={saving.isLoading}
          onShip={(shipment) => void save({ status: 'shipped', ...shipment })}
          onCancel={() => setAsking(null)}
        />
      )}
      {asking === 'unship' && (
        <ConfirmDialog
          title="Take this shipment back?"
          confirmLabel="Yes, back to Pending"
          cancelLabel="Keep it shipped"
          busy={saving.isLoading}
          onConfirm={() => void save({ status: 'pending' })}
          onCancel={() => setAsking(null)}
        >
          <p className="dash-dialog-what">
            {formatCount(order.qty)} × {order.Parts} for {buyerOf(order)} goes back to Pending: not shipped
            yet.
          </p>
          <p className="dash-muted">Its carrier and tracking number are cleared.</p>
        </ConfirmDialog>
      )}
      {asking === 'deliver' && (
        <ConfirmDialog
          title="Mark this order delivered?"
          confirmLabel="Yes, delivered"
          cancelLabel="Not yet"
          busy={saving.isLoading}
          onConfirm={() => void save({ status: 'delivered' })}
          onCancel={() => setAsking(null)}
        >
          <p className="dash-dialog-what">
            {formatCount(order.qty)} × {order.Parts} for {buyerOf(order)} reached the customer.
          </p>
          <p className="dash-muted">Once delivered, the shipment can no longer be taken back.</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
