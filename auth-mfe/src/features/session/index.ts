/**
 * The auth remote's side of the session, exposed as `auth/session`: the shared kit's session
 * listeners load it when Firebase is needed (an expired token to restore, a renewal, a sign-out)
 * and call it through `SessionModule`. Each function ends with `signedIn` or `signedOut`; the
 * listeners keep localStorage in step.
 */
import { sendEmailVerification, signOut as firebaseSignOut } from 'firebase/auth';
import { baseApi, selectToken, signedOut, type SessionModule } from '@motoparts/state';
import { firebaseAuth } from '../../lib/firebase';
import { completeSignIn } from '../../lib/token-exchange';
import { sessionApi } from './api';

export const { restoreSession, renewSession, signOut, sendVerificationMail } = {
  /** Our token expired but Firebase may still know the user: renew the API token, or sign out. */
  async restoreSession(host) {
    try {
      const auth = firebaseAuth();
      await auth.authStateReady();
      if (auth.currentUser) {
        await completeSignIn(host.dispatch, auth.currentUser);
        return;
      }
    } catch (err) {
      console.warn('[auth] could not restore the session:', err);
    }
    host.dispatch(signedOut());
  },

  /**
   * Our API tokens are short-lived: called before one expires (and when the API refuses an
   * expired one). Firebase keeps its own session, so the person notices nothing; a deleted or
   * disabled account, or one signed out elsewhere, is signed out here.
   */
  async renewSession(host) {
    // A renewal renews or ends only the session it started from: a sign-out, or a new sign-in,
    // that happened while it waited for Firebase and the API wins.
    const renewing = selectToken(host.getState());
    const unchanged = () => selectToken(host.getState()) === renewing;
    const auth = firebaseAuth();
    await auth.authStateReady();
    const user = auth.currentUser;
    if (user) {
      try {
        return await completeSignIn(host.dispatch, user, false, { renewal: unchanged });
      } catch (err) {
        const status = (err as { status?: unknown }).status;
        // Only a refusal ends the session; a network blip keeps the current token until it expires.
        if (status !== 401 && status !== 403) return null;
      }
    }
    if (unchanged()) host.dispatch(signedOut());
    return null;
  },

  /** Ends the session on the API and in Firebase, then forgets the visitor's cached data and session. */
  async signOut(host) {
    const token = selectToken(host.getState());
    try {
      if (token) {
        await host
          .dispatch(sessionApi.endpoints.endSession.initiate({ token }))
          .unwrap()
          .catch(() => undefined); // best effort: the token also expires on its own within minutes
      }
      await firebaseSignOut(firebaseAuth());
    } finally {
      host.dispatch(baseApi.util.resetApiState());
      host.dispatch(signedOut());
    }
  },

  /** Firebase's verification mail to the signed-in address, again (the API's lower cap says why). */
  async sendVerificationMail() {
    const auth = firebaseAuth();
    await auth.authStateReady();
    const user = auth.currentUser;
    if (!user) throw new Error('Sign in again to get a new verification mail.');
    await sendEmailVerification(user, { url: new URL('/login', window.location.origin).href });
  },
} satisfies SessionModule;
