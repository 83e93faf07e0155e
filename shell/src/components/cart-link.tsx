import { NavLink } from 'react-router-dom';
import { StoreProvider } from '@motoparts/state';
import { useGetCartQuery } from '@motoparts/state/cart';

function CountedLink({ onClick }: { onClick: () => void }) {
  // Every change to the cart (a line set or removed, a checkout) invalidates the cart's tag, so
  // the count follows without a reload.
  const { data } = useGetCartQuery();
  const lines = data?.lines.length;
  return (
    <NavLink to="/cart" className="cart-link" onClick={onClick}>
      <svg className="cart-link-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
        <path
          d="M3 4h2l2.4 10.2a1 1 0 0 0 1 .8h8.9a1 1 0 0 0 1-.7L21 8H6.2"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
        <circle cx="9" cy="19.5" r="1.6" fill="currentColor" />
        <circle cx="17" cy="19.5" r="1.6" fill="currentColor" />
      </svg>
      {/* Named by its text ("Cart 3 lines"), which holds what it shows, as axe wants. */}
      <span className="cart-link-label">Cart </span>
      {lines !== undefined && (
        <span className="cart-link-count">
          <span data-testid="cart-count">{lines}</span>
          <span className="visually-hidden"> {lines === 1 ? 'line' : 'lines'}</span>
        </span>
      )}
    </NavLink>
  );
}

/**
 * The top bar's cart link for a signed-in customer, in a chunk of its own with the cart's
 * endpoints (`@motoparts/state/cart`): a visitor's page never loads it, a customer's once the page
 * is interactive.
 */
export default function CartLink({ onClick }: { onClick: () => void }) {
  return (
    <StoreProvider>
      <CountedLink onClick={onClick} />
    </StoreProvider>
  );
}
