import { useCallback, useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { DELIVERY_ADDRESS_MAX_LENGTH, PHONE_MAX_LENGTH } from '@motoparts/contracts/contact';
import { ADMIN_CANNOT_ORDER } from '@motoparts/contracts/messages';
import {
  errorMessage,
  errorStatus,
  formatCount,
  formatPrice,
  injectStyles,
  selectAuth,
  useAppSelector,
  useGetProfileQuery,
} from '@motoparts/state';
import { useGetCartQuery, usePlaceCheckoutMutation } from '@motoparts/state/cart';
import { ensureStorefrontStyles } from '../../../styles';
import css from '../cart.css';
import { CartLineItem } from '../components/cart-line';
import { deliveryErrors, type Delivery, type DeliveryErrors } from '../delivery';
import { isUnverifiedCap, ResendVerification } from '../../../components/resend-verification';

ensureStorefrontStyles();
injectStyles('storefront-cart-styles', css);

/** A fresh key per press of Checkout: a retried request places the checkout once. */
function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

/** Where a placed checkout is paid: the dashboard's payment page for it. */
export const checkoutPaymentPath = (checkoutId: string) =>
  `/dashboard/payment/checkout/${encodeURIComponent(checkoutId)}`;

/** The lines whose quantity is being saved, so Checkout waits for them. */
function useBusyLines() {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const mark = useCallback((partId: string, on: boolean) => {
    setBusy((set) => {
      if (set.has(partId) === on) return set;
      const next = new Set(set);
      if (on) next.add(partId);
      else next.delete(partId);
      return next;
    });
  }, []);
  return [busy.size > 0, mark] as const;
}

/**
 * The delivery details and Checkout. The fields start with what the profile holds (the API keeps
 * the last checkout's address and phone there) until the customer types.
 */
function CheckoutForm({ ready, why }: { ready: boolean; why: string | null }) {
  const auth = useAppSelector(selectAuth);
  const email = auth.user?.email ?? '';
  const { data: profile } = useGetProfileQuery(email, { skip: !email });
  const [typed, setTyped] = useState<Partial<Delivery>>({});
  const [errors, setErrors] = useState<DeliveryErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  // The refusal was the lower cap of an unverified address: the verification mail is offered.
  const [unverified, setUnverified] = useState(false);
  const [placeCheckout, { isLoading }] = usePlaceCheckoutMutation();
  const navigate = useNavigate();
  const addressRef = useRef<HTMLTextAreaElement>(null);
  const phoneRef = useRef<HTMLInputElement>(null);
  const delivery: Delivery = {
    address: typed.address ?? profile?.address ?? '',
    phone: typed.phone ?? profile?.phone ?? '',
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (auth.admin) {
      window.alert(ADMIN_CANNOT_ORDER);
      return;
    }
    const found = deliveryErrors(delivery);
    setErrors(found);
    setFailure(null);
    if (found.address) return addressRef.current?.focus();
    if (found.phone) return phoneRef.current?.focus();
    const result = await placeCheckout({
      address: delivery.address.trim(),
      phone: delivery.phone.trim(),
      idempotencyKey: newIdempotencyKey(),
    });
    if ('data' in result && result.data) {
      navigate(checkoutPaymentPath(result.data.checkoutId));
      return;
    }
    if (errorStatus(result.error) === 403 && errorMessage(result.error, '') === ADMIN_CANNOT_ORDER) {
      window.alert(ADMIN_CANNOT_ORDER);
      return;
    }
    // A 409 (a line's stock fell, the cart changed in another window, too many unpaid orders):
    // the API says what, and the cart is read again (tag invalidation) so the lines show it.
    setFailure(errorMessage(result.error, 'Your checkout could not be placed. Please try again.'));
    setUnverified(isUnverifiedCap(result.error));
  };

  const field = (name: keyof Delivery) => ({
    value: delivery[name],
    onChange: (e: { target: { value: string } }) => setTyped((t) => ({ ...t, [name]: e.target.value })),
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `cart-${name}-error` : undefined,
  });

  return (
    <form
      className="card cart-checkout"
      onSubmit={(e) => void onSubmit(e)}
      noValidate
      aria-labelledby="delivery-heading"
    >
      <h2 id="delivery-heading">Delivery</h2>
      <div className="form-field">
        <label htmlFor="cart-address">Address</label>
        <textarea
          id="cart-address"
          ref={addressRef}
          rows={3}
          maxLength={DELIVERY_ADDRESS_MAX_LENGTH}
          autoComplete="street-address"
          {...field('address')}
        />
        {errors.address && (
          <p className="field-error" id="cart-address-error">
            {errors.address}
          </p>
        )}
      </div>
      <div className="form-field">
        <label htmlFor="cart-phone">Phone</label>
        <input
          id="cart-phone"
          ref={phoneRef}
          type="tel"
          maxLength={PHONE_MAX_LENGTH}
          autoComplete="tel"
          {...field('phone')}
        />
        {errors.phone && (
          <p className="field-error" id="cart-phone-error">
            {errors.phone}
          </p>
        )}
      </div>
      {failure && (
        <p className="notice notice-error" role="alert">
          {failure}
        </p>
      )}
      {failure && unverified && <ResendVerification />}
      <button type="submit" className="btn cart-checkout-button" disabled={!ready || isLoading}>
        {isLoading ? 'Checking out...' : 'Checkout'}
      </button>
      {why && <p className="cart-checkout-why">{why}</p>}
    </form>
  );
}

/** docs/product.md, `/cart`: the customer's cart, its total, the delivery details and Checkout. */
export default function CartPage() {
  const admin = useAppSelector(selectAuth).admin;
  // Read again on opening: a line's problems (stock, price) are worked out when the cart is read,
  // and the top bar's copy may be older than the stock.
  const {
    data: cart,
    isLoading,
    isError,
    error,
    refetch,
  } = useGetCartQuery(undefined, {
    skip: admin,
    refetchOnMountOrArgChange: true,
  });
  const [saving, markBusy] = useBusyLines();

  if (admin) {
    return (
      <div className="page cart">
        <div className="card" role="alert">
          <h1>Your cart</h1>
          <p>{ADMIN_CANNOT_ORDER}</p>
        </div>
      </div>
    );
  }
  if (isLoading) return <p className="page-loading">Loading...</p>;
  if (isError || !cart) {
    return (
      <div className="page cart">
        <div className="card" role="alert">
          <h1>Your cart could not be loaded</h1>
          <p>{errorMessage(error, 'Please check your connection and try again.')}</p>
          <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
            Retry
          </button>
        </div>
      </div>
    );
  }
  if (cart.lines.length === 0) {
    return (
      <div className="page cart">
        <div className="card cart-empty">
          <h1>Your cart</h1>
          <p>Your cart is empty.</p>
          <Link className="btn" to="/parts">
            Browse parts
          </Link>
        </div>
      </div>
    );
  }

  const problems = cart.lines.filter((l) => l.problem).length;
  const why =
    problems > 0
      ? `Fix or remove ${problems === 1 ? 'the line' : `the ${formatCount(problems)} lines`} marked above to check out.`
      : saving
        ? 'Saving your changes...'
        : null;

  return (
    <div className="page cart">
      <h1>Your cart</h1>
      <p className="cart-lines-count">
        {formatCount(cart.lines.length)} {cart.lines.length === 1 ? 'line' : 'lines'}
      </p>
      <div className="cart-layout">
        <ul className="cart-lines" aria-label="Lines">
          {cart.lines.map((line) => (
            <CartLineItem key={line.partId} line={line} onBusy={(on) => markBusy(line.partId, on)} />
          ))}
        </ul>
        <div className="cart-summary">
          <p className="cart-total card">
            Total: <strong data-testid="cart-total">{formatPrice(cart.total)}</strong>
          </p>
          <CheckoutForm ready={problems === 0 && !saving} why={why} />
        </div>
      </div>
    </div>
  );
}
