import { lazy, Suspense, useReducer } from 'react';
import { Link, useParams } from 'react-router-dom';
import { MESSAGES } from '@motoparts/contracts';
import { formatCount, formatPrice, selectSessionUser, useAppSelector } from '@motoparts/state';
import { LoadError, Loading } from '../../../components/status';
import { useClaimPaymentMutation, useCreatePaymentIntentQuery, useGetOrderQuery } from '../api';
import { cardPaymentReducer, initialCardPayment, orderPaymentPhase, pollIntervalFor } from '../payment-state';

// Stripe (script loader + React bindings) is split out of the dashboard's first chunk.
const StripeCardForm = lazy(() => import('../components/stripe-card-form'));

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
  const intent = useCreatePaymentIntentQuery(id, { skip: !order.data || paidBeforeVisit });
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
            <div role="status">
              <p>
                <span className="dash-badge dash-badge-paid">Paid</span> This order is already paid.
              </p>
              {o.transactionId && (
                <p>
                  Transaction id: <code>{o.transactionId}</code>
                </p>
              )}
            </div>
          ) : (
            <>
              {intent.isError && (
                <LoadError error={intent.error} what="the payment" onRetry={() => void intent.refetch()} />
              )}
              <Suspense fallback={<Loading what="the card form" />}>
                <StripeCardForm
                  clientSecret={intent.data?.clientSecret ?? null}
                  billing={{ name: user?.displayName || o.userName || o.user, email: user?.email ?? o.user }}
                  state={state}
                  dispatch={dispatch}
                  onSucceeded={onSucceeded}
                />
              </Suspense>
            </>
          )}
          {state.transactionId && (
            <div className="dash-success" role="status">
              <p className="dash-success-title">{MESSAGES.paymentDone}</p>
              <p>
                Your transaction id: <code data-testid="transaction-id">{state.transactionId}</code>
              </p>
              {phase === 'processing' ? (
                <p className="dash-processing">
                  <span className="dash-badge dash-badge-processing">Processing</span> Waiting for Stripe to
                  confirm the payment to our shop. This usually takes a few seconds.
                  {claimState.isError && ' (We will keep checking.)'}
                </p>
              ) : (
                <p>
                  <span className="dash-badge dash-badge-paid">Paid</span> Your order is paid.{' '}
                  <Link to="/dashboard/myOrder">See My Order</Link>
                </p>
              )}
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
