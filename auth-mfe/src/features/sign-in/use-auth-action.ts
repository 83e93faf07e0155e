import { useCallback, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { errorMessage, useAppDispatch, type AppDispatch } from '@motoparts/state';

interface FromState {
  from?: { pathname?: string; search?: string; hash?: string; state?: unknown } | string;
}

/** Where to go after signing in, and the history state to arrive with. */
export interface ReturnTo {
  path: string;
  /**
   * The state of the page that sent the visitor here, handed back to it: what it was asked to do
   * before sign-in came in between (a catalogue card's Add to cart), so it can finish it.
   */
  state: unknown;
}

/** The protected page (or the page asking for sign-in) that sent the visitor here, else home. */
export function returnTo(locationState: unknown): ReturnTo {
  const from = (locationState as FromState | null)?.from;
  if (typeof from === 'string') return { path: from.startsWith('/') ? from : '/', state: null };
  if (from?.pathname?.startsWith('/') && from.pathname !== '/login' && from.pathname !== '/signup') {
    return { path: `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`, state: from.state ?? null };
  }
  return { path: '/', state: null };
}

/** Where to go after signing in: the protected page that sent the visitor here, else home. */
export function useReturnTo(): ReturnTo {
  return returnTo(useLocation().state);
}

/** The provider's own message, as docs/product.md asks; API failures carry ours. */
export function describeError(err: unknown): string {
  const apiMessage = errorMessage(err, '');
  if (apiMessage) return apiMessage;
  if (err && typeof err === 'object') {
    // Firebase's errors: "Firebase: Error (auth/invalid-credential)." and the like.
    if ('message' in err && typeof err.message === 'string' && err.message) return err.message;
    if ('status' in err) return 'The MotoParts server could not complete the sign-in. Please try again.';
  }
  return 'Sign-in failed. Please try again.';
}

/**
 * Runs one sign-in action: busy flag, error text, then back to where the visitor came from. Or,
 * with `runHere`, an action that keeps the visitor on the page (the password reset mail): its
 * notice on success, its error in the same place as a sign-in's.
 */
export function useAuthAction() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const back = useReturnTo();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const runHere = useCallback(async (action: () => Promise<void>, done: string) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
      setNotice(done);
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }, []);

  const run = useCallback(
    async (action: (dispatch: AppDispatch) => Promise<void>) => {
      setBusy(true);
      setError(null);
      setNotice(null);
      try {
        await action(dispatch);
        navigate(back.path, { replace: true, state: back.state });
      } catch (err) {
        setError(describeError(err));
        setBusy(false);
      }
    },
    [dispatch, navigate, back.path, back.state],
  );

  return { busy, error, notice, run, runHere };
}
