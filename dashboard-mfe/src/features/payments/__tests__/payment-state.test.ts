import { MESSAGES } from '@motoparts/contracts';
import { formatPrice } from '@motoparts/state';
import {
  canPay,
  cardErrorText,
  cardPaymentReducer,
  initialCardPayment,
  orderPaymentPhase,
  pollIntervalFor,
  type CardPaymentEvent,
  type CardPaymentState,
} from '../payment-state';

const run = (events: CardPaymentEvent[], from: CardPaymentState = initialCardPayment) =>
  events.reduce(cardPaymentReducer, from);

describe('Pay button', () => {
  it('stays disabled until the card form is ready and the intent secret exists', () => {
    expect(canPay(initialCardPayment, 'pi_1_secret_x')).toBe(false);
    const ready = run([{ type: 'cardReady' }]);
    expect(canPay(ready, null)).toBe(false);
    expect(canPay(ready, '')).toBe(false);
    expect(canPay(ready, 'pi_1_secret_x')).toBe(true);
  });

  it('is disabled while confirming and after success', () => {
    const submitting = run([{ type: 'cardReady' }, { type: 'submitted' }]);
    expect(canPay(submitting, 'secret')).toBe(false);
    const done = run([{ type: 'succeeded', transactionId: 'pi_123' }], submitting);
    expect(done.transactionId).toBe('pi_123');
    expect(canPay(done, 'secret')).toBe(false);
  });

  it('is enabled again after a card error so the person can retry', () => {
    const failed = run([
      { type: 'cardReady' },
      { type: 'submitted' },
      { type: 'failed', message: 'Your card was declined.' },
    ]);
    expect(failed.paymentError).toBe('Your card was declined.');
    expect(canPay(failed, 'secret')).toBe(true);
    expect(run([{ type: 'cardChanged', error: null }], failed).paymentError).toBeNull();
  });

  it('ignores card events after success', () => {
    const done = run([{ type: 'cardReady' }, { type: 'succeeded', transactionId: 'pi_9' }]);
    expect(run([{ type: 'failed', message: 'late' }, { type: 'submitted' }], done)).toBe(done);
  });
});

describe('order payment phase', () => {
  it('is processing between Stripe success and the server confirmation, then paid', () => {
    expect(orderPaymentPhase(false, null)).toBe('unpaid');
    expect(orderPaymentPhase(false, 'pi_1')).toBe('processing');
    expect(orderPaymentPhase(true, 'pi_1')).toBe('paid');
    expect(orderPaymentPhase(true, null)).toBe('paid');
  });

  it('polls the order only while processing', () => {
    expect(pollIntervalFor('processing')).toBeGreaterThan(0);
    expect(pollIntervalFor('paid')).toBe(0);
    expect(pollIntervalFor('unpaid')).toBe(0);
  });
});

describe('texts', () => {
  it('shows prices as dollars with cents', () => {
    expect(formatPrice(1250)).toBe('$1,250.00');
    expect(formatPrice(0.5)).toBe('$0.50');
  });

  it("shows Stripe's message for a card error, or a plain fallback", () => {
    expect(cardErrorText({ message: 'Your card has insufficient funds.' })).toBe(
      'Your card has insufficient funds.',
    );
    expect(cardErrorText(undefined)).toMatch(/could not be charged/);
  });

  it('uses the exact success text of docs/product.md', () => {
    expect(MESSAGES.paymentDone).toBe('Congrats! Your payment is completed.');
  });
});
