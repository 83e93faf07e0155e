import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { CartLine } from '@motoparts/contracts';
import {
  assetUrl,
  errorMessage,
  formatCount,
  formatPrice,
  useAppDispatch,
  useGetPartQuery,
} from '@motoparts/state';
import { cartApi, useRemoveCartLineMutation } from '@motoparts/state/cart';
import { QuantityStepper } from '../../../components/quantity-stepper';
import type { StepResult, StepperBounds } from '../../../lib/stepper';
import { useLineQuantity } from '../line-quantity';
import { nextTier, tierHint, tiersOf } from '../tiers';

/** The cards' placeholder photo (components/part-card.tsx). */
const PART_PLACEHOLDER = '/images/part-placeholder.svg';

/**
 * The part's photo, or the placeholder when it fails to load, as on the cards. Not the cards'
 * PartImage: sharing part-card.tsx with this page makes webpack split it, with the storefront's
 * styles, out of the home page's chunk into one more file on every cold load.
 */
function LineImage({ line }: { line: CartLine }) {
  const [failed, setFailed] = useState(false);
  return (
    <img
      src={assetUrl(failed || !line.img ? PART_PLACEHOLDER : line.img)}
      alt={line.name}
      width={120}
      height={80}
      loading="lazy"
      decoding="async"
      data-fallback={failed ? 'true' : undefined}
      onError={() => setFailed(true)}
    />
  );
}

/**
 * The volume price this line could still reach, as a button that sets the line to it. Tiers come
 * with the part (GET /parts/:id, usually cached by the catalogue or the purchase page); a part
 * without them, or one no longer sold, shows nothing.
 */
function TierHint({ line, qty, onPick }: { line: CartLine; qty: number; onPick: (qty: number) => void }) {
  const { data: part } = useGetPartQuery(line.partId);
  const tier = nextTier(tiersOf(part), { qty, availableQty: line.availableQty, unitPrice: line.unitPrice });
  if (!tier) return null;
  return (
    <p className="tier-hint" data-testid="tier-hint">
      Volume price:{' '}
      <button type="button" className="link-button" onClick={() => onPick(tier.fromQty)}>
        {tierHint(tier)}
      </button>
    </p>
  );
}

/**
 * One line of the cart: the part, its quantity stepper (docs/product.md's rules and messages, as
 * on the purchase page), its volume-price hint, what stops it from being checked out, its total
 * and Remove. `onBusy` tells the page while the line's quantity is being saved.
 */
export function CartLineItem({ line, onBusy }: { line: CartLine; onBusy: (busy: boolean) => void }) {
  const dispatch = useAppDispatch();
  const { qty, saving, error, setQty } = useLineQuantity(line, onBusy);
  const [stepMessage, setStepMessage] = useState<string | null>(null);
  const [removeLine, removing] = useRemoveCartLineMutation();
  const [removeError, setRemoveError] = useState<string | null>(null);
  const bounds: StepperBounds = { min: line.minQty, stock: line.availableQty };
  const gone = line.problem?.code === 'deleted';
  const headingId = `cart-line-${line.partId}`;

  const step = (result: StepResult) => {
    setStepMessage(result.message);
    if (result.qty !== qty) setQty(result.qty);
  };

  const remove = async () => {
    setRemoveError(null);
    const result = await removeLine(line.partId);
    if ('data' in result && result.data) {
      const cart = result.data;
      dispatch(cartApi.util.updateQueryData('getCart', undefined, () => cart));
    } else {
      setRemoveError(errorMessage(result.error, 'This line could not be removed. Please try again.'));
    }
  };

  const problem = line.problem;
  // What the line's own problem can be fixed with, besides Remove.
  const fix =
    problem?.code === 'price' ? (
      <button type="button" className="btn btn-outline" onClick={() => setQty(line.qty)} disabled={saving}>
        Accept the new price
      </button>
    ) : problem?.code === 'stock' && line.availableQty >= line.minQty ? (
      <button
        type="button"
        className="btn btn-outline"
        onClick={() => setQty(line.availableQty)}
        disabled={saving}
      >
        Lower to {formatCount(line.availableQty)}
      </button>
    ) : null;

  return (
    <li className="cart-line card" data-testid="cart-line" aria-labelledby={headingId} aria-busy={saving}>
      <LineImage line={line} />
      <div className="cart-line-main">
        <h2 id={headingId} className="cart-line-name">
          {gone ? line.name : <Link to={`/purchase/${line.partId}`}>{line.name}</Link>}
        </h2>
        <p className="cart-line-facts">
          {formatPrice(line.unitPrice)} per piece · minimum {formatCount(line.minQty)}, in stock{' '}
          {formatCount(line.availableQty)}
        </p>
        {gone ? (
          <p className="cart-line-qty">
            Quantity: <strong data-testid="quantity">{qty}</strong>
          </p>
        ) : (
          <>
            <QuantityStepper
              qty={qty}
              bounds={bounds}
              message={error ?? stepMessage}
              onStep={step}
              label={`Quantity of ${line.name}`}
            />
            <TierHint line={line} qty={qty} onPick={(n) => step({ qty: n, message: null })} />
          </>
        )}
        {problem && (
          <div className="notice notice-error cart-line-problem" data-testid="line-problem">
            <p>{problem.message}</p>
            {fix}
          </div>
        )}
      </div>
      <div className="cart-line-side">
        <p className="cart-line-total">
          <span className="visually-hidden">Line total </span>
          <strong data-testid="line-total">{formatPrice(line.lineTotal)}</strong>
        </p>
        <button
          type="button"
          className="btn btn-outline"
          onClick={() => void remove()}
          disabled={removing.isLoading}
          aria-label={`Remove ${line.name}`}
        >
          {removing.isLoading ? 'Removing...' : 'Remove'}
        </button>
        {removeError && (
          <p className="field-error" role="alert">
            {removeError}
          </p>
        )}
      </div>
    </li>
  );
}
