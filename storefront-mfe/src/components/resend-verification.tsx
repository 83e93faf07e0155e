import { useState } from 'react';
import { errorDetails, requestVerificationMail, useAppDispatch } from '@motoparts/state';

/** Whether an API refusal is the lower hold cap of an account whose address is not verified. */
export function isUnverifiedCap(error: unknown): boolean {
  return errorDetails(error)?.emailVerified === false;
}

/**
 * Offered under the API's refusal of an unverified account's next hold: Firebase's verification
 * mail again (the first went out at sign-up). Verifying and signing in again lifts the lower cap.
 */
export function ResendVerification() {
  const dispatch = useAppDispatch();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');
  const send = async () => {
    setState('sending');
    try {
      await dispatch(requestVerificationMail()).unwrap();
      setState('sent');
    } catch {
      setState('failed');
    }
  };
  return (
    <div className="resend-verification">
      <button
        type="button"
        className="btn btn-secondary"
        disabled={state === 'sending'}
        onClick={() => void send()}
      >
        {state === 'sending' ? 'Sending...' : 'Resend verification mail'}
      </button>
      <p role="status" className="resend-verification-status">
        {state === 'sent' && 'Sent: open the link in the mail, then sign in again.'}
        {state === 'failed' && 'The mail could not be sent just now. Please try again in a few minutes.'}
      </p>
    </div>
  );
}
