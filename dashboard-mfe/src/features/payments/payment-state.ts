/**
 * The payment page as a small state machine (docs/product.md: intent on load → card confirmed →
 * success). Pure so the rules about when Pay is allowed are tested without a browser.
 */
export interface CardPaymentState {
  /** The card element reported `ready`. */
  cardReady: boolean;
  /** The card element's current inline error (incomplete number, bad expiry…). */
  cardError: string | null;
  /** confirmCardPayment is in flight. */
  submitting: boolean;
  /** The provider's message when confirming failed (declined card…). */
  paymentError: string | null;
  /** The PaymentIntent id once Stripe said `succeeded`: our transaction id. */
  transactionId: string | null;
}

export type CardPaymentEvent =
  | { type: 'cardReady' }
  | { type: 'cardChanged'; error: string | null }
  | { type: 'submitted' }
  | { type: 'failed'; message: string }
  | { type: 'succeeded'; transactionId: string };

export const initialCardPayment: CardPaymentState = {
  cardReady: false,
  cardError: null,
  submitting: false,
  paymentError: null,
  transactionId: null,
};

export function cardPaymentReducer(state: CardPaymentState, event: CardPaymentEvent): CardPaymentState {
  // Once paid, nothing the card form reports may reopen the payment.
  if (state.transactionId) return state;
  switch (event.type) {
    case 'cardReady':
      return { ...state, cardReady: true };
    case 'cardChanged':
      return { ...state, cardError: event.error, paymentError: null };
    case 'submitted':
      return { ...state, submitting: true, paymentError: null };
    case 'failed':
      return { ...state, submitting: false, paymentError: event.message };
    case 'succeeded':
      return { ...state, submitting: false, paymentError: null, transactionId: event.transactionId };
  }
}

/** docs/product.md: Pay only with a ready card form and an intent secret; never twice, never after success. */
export function canPay(state: CardPaymentState, clientSecret: string | null | undefined): boolean {
  return state.cardReady && Boolean(clientSecret) && !state.submitting && state.transactionId === null;
}

/**
 * Where the order stands, as the person should read it:
 * - `paid`: the API says paid (Stripe confirmed it to the server);
 * - `processing`: Stripe accepted the card here but the server has not heard it from Stripe yet;
 * - `unpaid`: nothing paid yet.
 */
export type OrderPaymentPhase = 'unpaid' | 'processing' | 'paid';

export function orderPaymentPhase(orderPaid: boolean, transactionId: string | null): OrderPaymentPhase {
  if (orderPaid) return 'paid';
  return transactionId ? 'processing' : 'unpaid';
}

/** How often to ask the API about an order that Stripe accepted but the server has not confirmed. */
export const CONFIRMATION_POLL_MS = 2000;

export function pollIntervalFor(phase: OrderPaymentPhase): number {
  return phase === 'processing' ? CONFIRMATION_POLL_MS : 0;
}

/** The message for a failed confirmation: Stripe's own when it gave one (docs/product.md). */
export function cardErrorText(error: { message?: string } | undefined): string {
  return error?.message?.trim() || 'Your card could not be charged. Please check the details and try again.';
}
