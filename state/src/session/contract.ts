import type { ThunkDispatch, UnknownAction } from '@reduxjs/toolkit';
import type { WithSession } from './state';

/**
 * What the session's effects work with: a store, or a listener's API inside one. Only the session
 * is read, so it names no more of the store than that (the store's own types depend on this).
 */
export interface SessionHost {
  dispatch: ThunkDispatch<WithSession, SessionThunkExtra, UnknownAction>;
  getState: () => WithSession;
}

/**
 * The auth remote's exposed `session` module (`auth/session`), the one way the shell and the
 * session listeners reach Firebase and the token exchange. Each call ends by dispatching
 * `signedIn` or `signedOut` itself.
 */
export interface SessionModule {
  /** Start-up with an expired token but a remembered user: renew it through Firebase, or sign out. */
  restoreSession: (host: SessionHost) => Promise<void>;
  /**
   * A fresh API token from the Firebase session (before the current one expires, or after the API
   * refused it). Null when there is none; a refusal also signs out, a network failure does not.
   */
  renewSession: (host: SessionHost) => Promise<string | null>;
  /** `signOutRequested`: end the API session, sign out of Firebase, reset the API cache, `signedOut`. */
  signOut: (host: SessionHost) => Promise<void>;
  /**
   * Firebase's verification mail to the signed-in address (again); rejects when there is no
   * Firebase session here or Firebase refuses (too many mails).
   */
  sendVerificationMail: (host: SessionHost) => Promise<void>;
}

/** Loads the session module on demand, so Firebase stays off the first paint. */
export type LoadSessionModule = () => Promise<SessionModule>;

/**
 * The thunk extra argument of every store (`makeStore`): how the API layer, which knows nothing
 * about Firebase, gets a new token when the API refuses ours.
 */
export interface SessionThunkExtra {
  /** One renewal at a time: requests that fail together wait for the same new token. */
  renewSession: (host: SessionHost) => Promise<string | null>;
  /** The auth remote's `sendVerificationMail`, for pages of other remotes (`requestVerificationMail`). */
  sendVerificationMail: (host: SessionHost) => Promise<void>;
  /**
   * Whether the session in `state` is being signed out now. The API refuses its token as soon as
   * the sign-out is recorded, before the sign-out's own answer: a call refused meanwhile is
   * neither renewed nor ends the session itself, which would show the visitor signed out (and let
   * them sign in again) while the API still holds the sign-out's second.
   */
  endingSession: (state: WithSession) => boolean;
}
