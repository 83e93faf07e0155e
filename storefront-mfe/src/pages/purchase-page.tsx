import { useRef, useState, type FormEvent, type RefObject } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ADMIN_CANNOT_ORDER, CATEGORY_LABELS } from '@motoparts/contracts/messages';
import type { Order, Part } from '@motoparts/contracts';
import { Dialog, errorMessage, selectAuth, useAppSelector, useGetPartQuery } from '@motoparts/state';
import { formatCount, formatPrice } from '../components/format';
import { PartImage, StockBadge } from '../components/part-card';
import { usePlaceOrderMutation } from '../features/purchase/orders-api';
import { canOrder, decrease, increase, initialQty, type StepperBounds } from '../features/purchase/stepper';
import { ensureStorefrontStyles } from '../styles';

ensureStorefrontStyles();

function statusOf(error: unknown): number | string | undefined {
  return error && typeof error === 'object' && 'status' in error
    ? (error as { status: number | string }).status
    : undefined;
}

/** The 409 of the per-customer cap on unpaid orders carries `details.maxOpenOrders`. */
function isOpenOrdersCap(error: unknown): boolean {
  const data =
    error && typeof error === 'object' && 'data' in error ? (error as { data: unknown }).data : undefined;
  const details = (data as { error?: { details?: { maxOpenOrders?: unknown } } } | undefined)?.error?.details;
  return typeof details?.maxOpenOrders === 'number';
}

/** A fresh key per press (random UUID where available, else time + randomness). */
function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

function OrderAccepted({
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

function PurchaseForm({ part }: { part: Part }) {
  const auth = useAppSelector(selectAuth);
  const bounds: StepperBounds = { min: part.qty, stock: part.availableQty };
  const [qty, setQty] = useState(() => initialQty(bounds));
  const [stepMessage, setStepMessage] = useState<string | null>(null);
  const [orderError, setOrderError] = useState<string | null>(null);
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
    // Address and phone stay on this page: the SPEC neither validates nor sends them.
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
    const status = statusOf(result.error);
    if (status === 409 && isOpenOrdersCap(result.error)) {
      // Too many unpaid orders already: the server's message says what to do.
      setOrderError(errorMessage(result.error, 'You have too many unpaid orders.'));
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
        <div className="stepper" role="group" aria-labelledby="qty-label">
          <button type="button" className="btn btn-outline" onClick={() => step(decrease(qty, bounds))}>
            Decrease
          </button>
          <output aria-live="polite" aria-label="Quantity" data-testid="quantity">
            {qty}
          </output>
          <button type="button" className="btn btn-outline" onClick={() => step(increase(qty, bounds))}>
            Increase
          </button>
        </div>
        <p className="field-error stepper-message" role="alert" data-testid="stepper-message">
          {stepMessage}
        </p>
      </div>

      <p className="order-total">
        Total: <strong data-testid="order-total">{formatPrice(qty * part.price)}</strong>
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
      <button ref={orderNowRef} type="submit" className="btn" disabled={!orderable || isLoading}>
        {isLoading ? 'Placing your order...' : 'Order now'}
      </button>
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

export default function PurchasePage() {
  const { id = '' } = useParams();
  const { data: part, isLoading, isError, error, refetch } = useGetPartQuery(id, { skip: !id });

  if (isLoading) return <p className="page-loading">Loading...</p>;
  if (isError || !part) {
    const missing = statusOf(error) === 404 || statusOf(error) === 400;
    return (
      <div className="page">
        <div className="card" role="alert">
          <h1>{missing ? 'Part not found' : 'This part could not be loaded'}</h1>
          <p>
            {missing
              ? 'This part does not exist or is no longer sold.'
              : errorMessage(error, 'Please check your connection and try again.')}
          </p>
          <div className="hero-actions">
            {!missing && (
              <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
                Retry
              </button>
            )}
            <Link className="btn" to="/parts">
              Back to all parts
            </Link>
          </div>
        </div>
      </div>
    );
  }

  return (
    <div className="page">
      <div className="purchase">
        <section className="purchase-product" aria-labelledby="product-heading">
          <PartImage part={part} width={560} height={373} eager />
          <p className="part-tags">
            <span className="part-category">{CATEGORY_LABELS[part.category]}</span>
            <StockBadge part={part} />
          </p>
          <h1 id="product-heading">{part.name}</h1>
          <p>{part.text}</p>
          <p className="part-price">
            {formatPrice(part.price)} <span>per piece</span>
          </p>
          <dl className="part-facts">
            <div>
              <dt>Minimum order</dt>
              <dd>{formatCount(part.qty)} pcs</dd>
            </div>
            <div>
              <dt>Available</dt>
              <dd data-testid="available-qty">{formatCount(part.availableQty)} pcs</dd>
            </div>
          </dl>
        </section>
        {/* Keyed by part so a different part starts again at its own minimum. */}
        <PurchaseForm key={part._id} part={part} />
      </div>
    </div>
  );
}
