import { useReducer } from 'react';
import { Link, Navigate, useParams } from 'react-router-dom';
import { formatCount, formatPrice, selectSessionUser, useAppSelector } from '@motoparts/state';
import { LoadError, Loading } from '../../../components/status';
import { useClaimPaymentMutation, useCreatePaymentIntentQuery, useGetOrderQuery } from '../api';
import { CardPayment } from '../components/card-payment';
import { AlreadyPaid, PaymentResult } from '../components/payment-result';
import { cardPaymentReducer, initialCardPayment, orderPaymentPhase, pollIntervalFor } from '../payment-state';

/** docs/product.md: pay one order by card; Paid once Stripe has confirmed it to the server. */
export default function PaymentPage() {
  const { id = '' } = useParams();
  const user = useAppSelector(selectSessionUser);
  const [state, dispatch] = useReducer(cardPaymentReducer, initialCardPayment);
  const order = useGetOrderQuery(id);
  const phase = orderPaymentPhase(order.data?.paid ?? false, state.transactionId);
  // A second subscription that only polls while waiting for Stripe's word to reach the server.
  useGetOrderQuery(id, { pollingInterval: pollIntervalFor(phase), skip: phase !== 'processing' });
  const paidBeforeVisit = Boolean(order.data?.paid) && !state.transactionId;
  // A line of a checkout is paid with its checkout (the API refuses an intent for it alone).
  const checkoutId = order.data?.checkoutId;
  const intent = useCreatePaymentIntentQuery(id, {
    skip: !order.data || paidBeforeVisit || Boolean(checkoutId),
  });
  const [claim, claimState] = useClaimPaymentMutation();

  function onSucceeded(transactionId: string) {
    dispatch({ type: 'succeeded', transactionId });
    // The server checks with Stripe itself; if Stripe has not confirmed yet, polling takes over.
    void claim({ id, transactionId });
  }

  if (order.isLoading) return <Loading what="the order" />;
  if (order.isError || !order.data) {
    return (
      <section aria-labelledby="payment-title">
        <h1 id="payment-title">Payment</h1>
        <LoadError error={order.error} what="this order" onRetry={() => void order.refetch()} />
        <Link to="/dashboard/myOrder">Back to My Order</Link>
      </section>
    );
  }

  if (checkoutId) return <Navigate to={`/dashboard/payment/checkout/${checkoutId}`} replace />;

  const o = order.data;
  return (
    <section aria-labelledby="payment-title">
      <h1 id="payment-title">Payment</h1>
      <div className="dash-payment">
        <div className="card dash-summary" aria-label="Order summary">
          <h2>Order summary</h2>
          <dl>
            <dt>Part</dt>
            <dd>{o.Parts}</dd>
            <dt>Quantity</dt>
            <dd>{formatCount(o.qty)}</dd>
            <dt>Price</dt>
            <dd data-testid="payment-price">{formatPrice(o.price)}</dd>
            <dt>Order id</dt>
            <dd>
              <code>{o._id}</code>
            </dd>
          </dl>
        </div>
        <div className="card dash-pay">
          <h2>Pay by card</h2>
          {paidBeforeVisit ? (
            <AlreadyPaid transactionId={o.transactionId}>This order is already paid.</AlreadyPaid>
          ) : (
            <CardPayment
              intentFailed={intent.isError}
              intentError={intent.error}
              onRetryIntent={() => void intent.refetch()}
              clientSecret={intent.data?.clientSecret ?? null}
              billing={{ name: user?.displayName || o.userName || o.user, email: user?.email ?? o.user }}
              state={state}
              dispatch={dispatch}
              onSucceeded={onSucceeded}
            />
          )}
          {state.transactionId && (
            <PaymentResult
              transactionId={state.transactionId}
              processing={phase === 'processing'}
              claimFailed={claimState.isError}
              paidText="Your order is paid."
            />
          )}
        </div>
      </div>
    </section>
  );
}
