import { useEffect, useReducer, useRef } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { Checkout } from '@motoparts/contracts';
import { formatPrice, selectSessionUser, useAppSelector } from '@motoparts/state';
import {
  useClaimCheckoutPaymentMutation,
  useCreateCheckoutIntentMutation,
  useGetCheckoutQuery,
} from '@motoparts/state/cart';
import { CheckoutLines } from '../../../components/checkout-lines';
import { LoadError, Loading } from '../../../components/status';
import { CardPayment } from '../components/card-payment';
import { AlreadyPaid, PaymentResult } from '../components/payment-result';
import { cardPaymentReducer, initialCardPayment, orderPaymentPhase, pollIntervalFor } from '../payment-state';

/** Why a checkout that is neither placed nor paid cannot be paid any more. */
const CLOSED: Partial<Record<Checkout['status'], string>> = {
  cancelled: 'This checkout was cancelled: its pieces went back on sale, and there is nothing to pay.',
  expired: 'This checkout expired: it was not paid in time, and its pieces went back to stock.',
};

function heldUntil(expiresAt: string | undefined): string {
  const date = expiresAt ? new Date(expiresAt) : null;
  if (!date || Number.isNaN(date.getTime())) return '';
  return date.toLocaleTimeString('en-US', { timeStyle: 'short' });
}

function CheckoutSummary({ checkout }: { checkout: Checkout }) {
  const until = checkout.status === 'placed' && !checkout.paid ? heldUntil(checkout.expiresAt) : '';
  return (
    <section className="card dash-summary" aria-labelledby="checkout-summary-title">
      <h2 id="checkout-summary-title">Checkout summary</h2>
      <CheckoutLines
        orders={checkout.orders}
        labelledBy="checkout-summary-title"
        className="table dash-lines"
      />
      <dl>
        <dt>Total</dt>
        <dd className="dash-total" data-testid="checkout-total">
          {formatPrice(checkout.total)}
        </dd>
        <dt>Checkout id</dt>
        <dd>
          <code>{checkout.checkoutId}</code>
        </dd>
      </dl>
      {until && <p className="dash-muted">Its pieces are held for you until {until}.</p>}
    </section>
  );
}

/**
 * docs/product.md#checkout-payment: a checkout's lines and total, paid at once by card with one
 * PaymentIntent for the total; the card form and Stripe handling are the order page's.
 */
export default function CheckoutPaymentPage() {
  const { checkoutId = '' } = useParams();
  const user = useAppSelector(selectSessionUser);
  const [state, dispatch] = useReducer(cardPaymentReducer, initialCardPayment);
  const checkout = useGetCheckoutQuery(checkoutId);
  const phase = orderPaymentPhase(checkout.data?.paid ?? false, state.transactionId);
  // A second subscription that only polls while waiting for Stripe's word to reach the server.
  useGetCheckoutQuery(checkoutId, { pollingInterval: pollIntervalFor(phase), skip: phase !== 'processing' });
  const [createIntent, intent] = useCreateCheckoutIntentMutation();
  const [claim, claimState] = useClaimCheckoutPaymentMutation();
  const { refetch } = checkout;

  const open = checkout.data?.status === 'placed' && !checkout.data.paid;
  // The intent is asked for once per checkout on load, as the order page's is (the API hands back
  // the same one for the same checkout); a ref, because Strict Mode runs effects twice.
  const requested = useRef<string | null>(null);
  useEffect(() => {
    if (!open || requested.current === checkoutId) return;
    requested.current = checkoutId;
    // Refused (expired meanwhile…): the checkout is read again, so the page says what it is now.
    void createIntent(checkoutId)
      .unwrap()
      .catch(() => void refetch());
  }, [open, checkoutId, createIntent, refetch]);

  function onSucceeded(transactionId: string) {
    dispatch({ type: 'succeeded', transactionId });
    // The server checks with Stripe itself; if Stripe has not confirmed yet, polling takes over.
    void claim({ checkoutId, transactionId });
  }

  if (checkout.isLoading) return <Loading what="the checkout" />;
  if (checkout.isError || !checkout.data) {
    return (
      <section aria-labelledby="payment-title">
        <h1 id="payment-title">Payment</h1>
        <LoadError error={checkout.error} what="this checkout" onRetry={() => void checkout.refetch()} />
        <Link to="/dashboard/myOrder">Back to My Order</Link>
      </section>
    );
  }

  const c = checkout.data;
  const closed = c.paid ? undefined : CLOSED[c.status];
  const first = c.orders[0];
  return (
    <section aria-labelledby="payment-title">
      <h1 id="payment-title">Payment</h1>
      <div className="dash-payment">
        <CheckoutSummary checkout={c} />
        <div className="card dash-pay">
          <h2>Pay by card</h2>
          {closed ? (
            <div className="dash-alert" role="status" data-testid="checkout-closed">
              <p>{closed}</p>
              <Link to="/dashboard/myOrder">Back to My Order</Link>
            </div>
          ) : c.paid && !state.transactionId ? (
            <AlreadyPaid transactionId={c.transactionId}>This checkout is already paid.</AlreadyPaid>
          ) : (
            <CardPayment
              intentFailed={intent.isError}
              intentError={intent.error}
              onRetryIntent={() => void createIntent(checkoutId)}
              clientSecret={intent.data?.clientSecret ?? null}
              billing={{
                name: user?.displayName || first?.userName || first?.user || '',
                email: user?.email ?? first?.user ?? '',
              }}
              state={state}
              dispatch={dispatch}
              onSucceeded={onSucceeded}
            />
          )}
          {state.transactionId && !closed && (
            <PaymentResult
              transactionId={state.transactionId}
              processing={phase === 'processing'}
              claimFailed={claimState.isError}
              paidText="Every line of your checkout is paid."
            />
          )}
        </div>
      </div>
    </section>
  );
}
