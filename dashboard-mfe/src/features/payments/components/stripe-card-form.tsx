/**
 * Everything that touches Stripe lives in this module, which the payment page imports lazily:
 * Stripe.js and its React bindings are fetched only when someone opens a payment page (docs/architecture.md).
 */
import { useEffect, useState, type Dispatch } from 'react';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeCardElementChangeEvent } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { getConfig } from '@motoparts/state';
import { canPay, cardErrorText, type CardPaymentEvent, type CardPaymentState } from '../payment-state';

let stripePromise: Promise<Stripe | null> | null = null;

/**
 * Loads Stripe.js once per page life. A failure (offline, blocked script) resolves to null, and is
 * forgotten so that "Try again" really tries again.
 */
function getStripe(): Promise<Stripe | null> {
  if (!stripePromise) {
    stripePromise = loadStripe(getConfig().stripePublishableKey)
      .catch(() => null)
      .then((stripe) => {
        if (!stripe) stripePromise = null;
        return stripe;
      });
  }
  return stripePromise;
}

export interface StripeCardFormProps {
  clientSecret: string | null;
  billing: { name: string; email: string };
  state: CardPaymentState;
  dispatch: Dispatch<CardPaymentEvent>;
  onSucceeded: (transactionId: string) => void;
}

const CARD_OPTIONS = {
  hidePostalCode: true,
  style: { base: { fontSize: '16px', color: '#1d1f21', '::placeholder': { color: '#52575c' } } },
};

function CardForm({ clientSecret, billing, state, dispatch, onSucceeded }: StripeCardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const payable = Boolean(stripe && elements) && canPay(state, clientSecret);

  async function pay(event: React.FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || !clientSecret || !canPay(state, clientSecret)) return;
    const card = elements.getElement(CardElement);
    if (!card) {
      dispatch({ type: 'failed', message: 'The card form is not ready yet. Please try again in a moment.' });
      return;
    }
    dispatch({ type: 'submitted' });
    const { error, paymentIntent } = await stripe.confirmCardPayment(clientSecret, {
      payment_method: { card, billing_details: { name: billing.name, email: billing.email } },
    });
    if (error) {
      dispatch({ type: 'failed', message: cardErrorText(error) });
    } else if (paymentIntent.status === 'succeeded') {
      onSucceeded(paymentIntent.id);
    } else {
      dispatch({
        type: 'failed',
        message: `The payment was not completed (status: ${paymentIntent.status}). Please try again.`,
      });
    }
  }

  const error = state.paymentError ?? state.cardError;
  return (
    <form className="dash-card-form" onSubmit={(e) => void pay(e)} aria-label="Card payment">
      <fieldset className="dash-card-fieldset">
        <legend>Card details</legend>
        <CardElement
          className="dash-card-element"
          options={CARD_OPTIONS}
          onReady={() => dispatch({ type: 'cardReady' })}
          onChange={(e: StripeCardElementChangeEvent) =>
            dispatch({ type: 'cardChanged', error: e.error?.message ?? null })
          }
        />
      </fieldset>
      {error && (
        <p className="form-error dash-card-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn" disabled={!payable}>
        {state.submitting ? 'Paying...' : 'Pay'}
      </button>
      {!clientSecret && !state.transactionId && <p className="dash-muted">Preparing the payment...</p>}
    </form>
  );
}

export default function StripeCardForm(props: StripeCardFormProps) {
  // undefined: still loading; null: Stripe.js could not load.
  const [stripe, setStripe] = useState<Stripe | null | undefined>(undefined);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let current = true;
    void getStripe().then((loaded) => {
      if (current) setStripe(loaded);
    });
    return () => {
      current = false;
    };
  }, [attempt]);

  if (stripe === undefined) {
    return (
      <p className="dash-status" role="status">
        Loading the card form...
      </p>
    );
  }
  if (stripe === null) {
    return (
      <div className="dash-alert" role="alert">
        <p>
          Card payments are unavailable right now: the payment service (Stripe) could not be loaded. Please
          check your connection and try again later. Your order is kept and stays unpaid until you pay.
        </p>
        <button
          type="button"
          className="btn btn-outline"
          onClick={() => {
            setStripe(undefined);
            setAttempt((n) => n + 1);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  return (
    <Elements stripe={stripe}>
      <CardForm {...props} />
    </Elements>
  );
}
