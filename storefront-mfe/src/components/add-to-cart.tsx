import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { ADMIN_CANNOT_ORDER } from '@motoparts/contracts/messages';
import {
  errorMessage,
  errorStatus,
  formatCount,
  injectStyles,
  selectAuth,
  useAppDispatch,
  useAppSelector,
} from '@motoparts/state';
import { cartApi } from '@motoparts/state/cart';
import css from '../styles/cart-actions.css';

// Only the pages with an Add to cart carry these rules: storefront.css is on the home page's
// cold load, which must not grow.
injectStyles('storefront-cart-actions', css);

/**
 * What to put in the cart. `atLeast`: a card's Add to cart offers the part's minimum, which must
 * not lower a quantity the customer already chose for it; the purchase page sets the line to the
 * stepper's quantity, whatever it was.
 */
export interface CartRequest {
  partId: string;
  name: string;
  qty: number;
  atLeast?: boolean;
}

/**
 * The history state a page asking a signed-out visitor to sign in keeps for its return (the
 * login page hands it back): the Add to cart to finish once they are signed in.
 */
interface AfterSignIn {
  addToCart?: CartRequest;
}

const pieces = (qty: number) => `${formatCount(qty)} ${qty === 1 ? 'piece' : 'pieces'}`;

/**
 * Add to cart, the same everywhere: an admin gets the spec's alert (as with Order now), a
 * signed-out visitor goes through /login and comes back to finish it, a customer gets the line
 * and a toast that says what the cart now holds.
 */
export function useAddToCart() {
  const auth = useAppSelector(selectAuth);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [busy, setBusy] = useState(false);

  const add = async (request: CartRequest): Promise<void> => {
    if (auth.admin) {
      window.alert(ADMIN_CANNOT_ORDER);
      return;
    }
    if (auth.status !== 'signedIn') {
      const afterSignIn: AfterSignIn = { addToCart: request };
      navigate('/login', { state: { from: { ...location, state: afterSignIn } } });
      return;
    }
    setBusy(true);
    try {
      // Usually already in the cache (the top bar's count holds it); it says whether the part
      // is in the cart and with how many pieces.
      const cart = await dispatch(
        cartApi.endpoints.getCart.initiate(undefined, { subscribe: false }),
      ).unwrap();
      const line = cart.lines.find((l) => l.partId === request.partId);
      if (line && request.atLeast && line.qty >= request.qty) {
        toast.info(`${request.name} is already in your cart: ${pieces(line.qty)}.`);
        return;
      }
      await dispatch(
        cartApi.endpoints.setCartLine.initiate({ partId: request.partId, qty: request.qty }),
      ).unwrap();
      toast.success(
        line
          ? `Your cart now has ${pieces(request.qty)} of ${request.name}.`
          : `Added to your cart: ${pieces(request.qty)} of ${request.name}.`,
      );
    } catch (err) {
      if (errorStatus(err) === 403 && errorMessage(err, '') === ADMIN_CANNOT_ORDER)
        window.alert(ADMIN_CANNOT_ORDER);
      else
        toast.error(errorMessage(err, `${request.name} could not be added to your cart. Please try again.`));
    } finally {
      setBusy(false);
    }
  };

  return { add, busy };
}

/**
 * Finishes the Add to cart a signed-out visitor pressed on this page before signing in: the
 * login page brings them back here with it in the history state. It is taken off the history
 * entry first, so Back, a reload or a second render does not add it again.
 */
export function useAddToCartAfterSignIn(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const signedIn = useAppSelector(selectAuth).status === 'signedIn';
  const { add } = useAddToCart();
  const request = (location.state as AfterSignIn | null)?.addToCart;
  const done = useRef<string | null>(null);
  const addRef = useRef(add);
  addRef.current = add;

  useEffect(() => {
    if (!request || !signedIn || done.current === location.key) return;
    done.current = location.key;
    navigate(
      { pathname: location.pathname, search: location.search, hash: location.hash },
      { replace: true },
    );
    void addRef.current(request);
  }, [request, signedIn, location, navigate]);
}

/** The Add to cart button of a card or of the purchase page. */
export function AddToCartButton({
  request,
  disabled = false,
  className = 'btn btn-outline',
  label,
}: {
  request: CartRequest;
  disabled?: boolean;
  className?: string;
  /** The accessible name where the visible text alone is ambiguous (a grid of cards). */
  label?: string;
}) {
  const { add, busy } = useAddToCart();
  return (
    <button
      type="button"
      className={`${className} add-to-cart`}
      disabled={disabled || busy}
      aria-label={label}
      onClick={() => void add(request)}
    >
      {busy ? 'Adding...' : 'Add to cart'}
    </button>
  );
}
