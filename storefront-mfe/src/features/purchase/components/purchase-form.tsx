import { useRef, useState, type FormEvent } from 'react';
import { ADMIN_CANNOT_ORDER } from '@motoparts/contracts/messages';
import { tierReached, unitPriceCentsOf } from '@motoparts/contracts/pricing';
import type { Order, Part } from '@motoparts/contracts';
import {
  errorDetails,
  errorMessage,
  errorStatus,
  formatCount,
  formatPrice,
  selectAuth,
  useAppSelector,
} from '@motoparts/state';
import { AddToCartButton } from '../../../components/add-to-cart';
import { usePlaceOrderMutation } from '../api';
import { QuantityStepper } from '../../../components/quantity-stepper';
import { canOrder, initialQty, type StepperBounds } from '../../../lib/stepper';
import { OrderAccepted } from './order-accepted';
import { isUnverifiedCap, ResendVerification } from '../../../components/resend-verification';

/** The 409 of the per-customer cap on unpaid orders carries `details.maxOpenOrders`. */
function isOpenOrdersCap(error: unknown): boolean {
  return typeof errorDetails(error)?.maxOpenOrders === 'number';
}

/** A fresh key per press (random UUID where available, else time + randomness). */
function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** The quantity stepper, the buyer's details and Order now, for one part. */
export function PurchaseForm({ part }: { part: Part }) {
  const auth = useAppSelector(selectAuth);
  const bounds: StepperBounds = { min: part.qty, stock: part.availableQty };
  const [qty, setQty] = useState(() => initialQty(bounds));
  const [stepMessage, setStepMessage] = useState<string | null>(null);
  const [orderError, setOrderError] = useState<string | null>(null);
  // The refusal was the lower cap of an unverified address: the verification mail is offered.
  const [unverified, setUnverified] = useState(false);
  const [accepted, setAccepted] = useState<Order | null>(null);
  const [placeOrder, { isLoading }] = usePlaceOrderMutation();
  const orderNowRef = useRef<HTMLButtonElement>(null);
  const buyerName = auth.user?.displayName || auth.user?.email || '';

  // The stepper only changes this page's number; nothing is written to the part (docs/product.md).
  const step = (result: { qty: number; message: string | null }) => {
    setQty(result.qty);
    setStepMessage(result.message);
    setOrderError(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (auth.admin) {
      window.alert(ADMIN_CANNOT_ORDER);
      return;
    }
    if (!canOrder(qty, bounds)) return;
    setOrderError(null);
    // Address and phone stay on this page: docs/product.md has them neither validated nor sent.
    const result = await placeOrder({
      partsId: part._id,
      qty,
      userName: buyerName,
      idempotencyKey: newIdempotencyKey(),
    });
    if ('data' in result && result.data) {
      setAccepted(result.data);
      return;
    }
    const status = errorStatus(result.error);
    if (status === 409 && isOpenOrdersCap(result.error)) {
      // Too many unpaid orders already: the server's message says what to do.
      setOrderError(errorMessage(result.error, 'You have too many unpaid orders.'));
      setUnverified(isUnverifiedCap(result.error));
    } else if (status === 409) {
      // The server's answer wins; the part is refetched (tag invalidation) so the new stock shows.
      setOrderError(
        `Sorry, the stock changed while you were ordering: ${errorMessage(result.error, 'not enough pieces are left.')} Please choose a quantity within the stock shown.`,
      );
    } else if (status === 403 && errorMessage(result.error, '') === ADMIN_CANNOT_ORDER) {
      window.alert(ADMIN_CANNOT_ORDER);
    } else {
      setOrderError(errorMessage(result.error, 'Your order could not be placed. Please try again.'));
    }
  };

  const orderable = canOrder(qty, bounds);
  // The server prices the order by the same rule, so the total shown is the total charged.
  const unitCents = unitPriceCentsOf(part, qty);
  const tier = tierReached(part.priceTiers, qty);

  return (
    <form className="card purchase-form" onSubmit={(e) => void onSubmit(e)} aria-labelledby="order-heading">
      <h2 id="order-heading">Your order</h2>
      <p className="purchase-buyer">
        Ordering as <strong>{buyerName}</strong>
        {auth.user?.email && auth.user.displayName ? ` (${auth.user.email})` : ''}
      </p>

      <div className="form-field">
        <span id="qty-label">
          <strong>Quantity</strong> (minimum {formatCount(bounds.min)}, in stock {formatCount(bounds.stock)})
        </span>
        <QuantityStepper
          qty={qty}
          bounds={bounds}
          message={stepMessage}
          onStep={step}
          labelledBy="qty-label"
        />
      </div>

      <p className="order-total">
        Unit price: <strong data-testid="unit-price">{formatPrice(unitCents / 100)}</strong>
        {tier && ` (volume price from ${formatCount(tier.fromQty)} pcs)`}
        <br />
        Total: <strong data-testid="order-total">{formatPrice((unitCents * qty) / 100)}</strong>
      </p>

      <div className="form-field">
        <label htmlFor="order-address">Address</label>
        <input id="order-address" name="address" type="text" autoComplete="street-address" />
      </div>
      <div className="form-field">
        <label htmlFor="order-phone">Phone</label>
        <input id="order-phone" name="phone" type="tel" autoComplete="tel" />
      </div>

      {orderError && (
        <p className="notice notice-error" role="alert">
          {orderError}
        </p>
      )}
      {orderError && unverified && <ResendVerification />}
      <button ref={orderNowRef} type="submit" className="btn" disabled={!orderable || isLoading}>
        {isLoading ? 'Placing your order...' : 'Order now'}
      </button>
      {/* Disabled exactly as Order now is; the line takes the stepper's quantity. */}
      <AddToCartButton
        request={{ partId: part._id, name: part.name, qty }}
        disabled={!orderable || isLoading}
      />
      {!orderable && qty > bounds.stock && (
        <p className="field-error">
          {bounds.stock < bounds.min
            ? `Only ${formatCount(bounds.stock)} pieces are left, fewer than the minimum order of ${formatCount(bounds.min)}.`
            : `Only ${formatCount(bounds.stock)} pieces are in stock. Decrease the quantity to order.`}
        </p>
      )}

      {accepted && <OrderAccepted order={accepted} opener={orderNowRef} onClose={() => setAccepted(null)} />}
    </form>
  );
}
