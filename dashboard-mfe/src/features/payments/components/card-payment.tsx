import { lazy, Suspense } from 'react';
import { LoadError, Loading } from '../../../components/status';
import type { StripeCardFormProps } from './stripe-card-form';

// Stripe (script loader + React bindings) is split out of the dashboard's first chunk.
const StripeCardForm = lazy(() => import('./stripe-card-form'));

/**
 * The card side of a payment page, for one order and for a checkout alike: the intent's failure
 * (the API's reason, with Try again) above Stripe's card form, which loads on first use.
 */
export function CardPayment({
  intentFailed,
  intentError,
  onRetryIntent,
  ...form
}: StripeCardFormProps & { intentFailed: boolean; intentError: unknown; onRetryIntent: () => void }) {
  return (
    <>
      {intentFailed && <LoadError error={intentError} what="the payment" onRetry={onRetryIntent} />}
      <Suspense fallback={<Loading what="the card form" />}>
        <StripeCardForm {...form} />
      </Suspense>
    </>
  );
}
