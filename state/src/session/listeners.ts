import { createListenerMiddleware, isAnyOf, type Middleware } from '@reduxjs/toolkit';
import { baseApi } from '../base-api';
import type { LoadSessionModule, SessionHost, SessionThunkExtra } from './contract';
import {
  profileRenamed,
  restoreFailed,
  restoreRequested,
  signedIn,
  signedOut,
  signOutRequested,
} from './slice';
import { selectAuthStatus, selectSessionUser, selectToken, type WithSession } from './state';
import {
  clearStoredSession,
  hasRememberedUser,
  readStoredSession,
  readTokenClaims,
  writeStoredSession,
} from './storage';

/** Renew this long before our API token expires (tokens live 15 minutes). */
const RENEW_AHEAD_MS = 2 * 60 * 1000;

/** How long to wait before renewing a token that has `lifetimeMs` left: never past half its life. */
export function renewalDelay(lifetimeMs: number): number {
  return Math.max(0, lifetimeMs - Math.min(RENEW_AHEAD_MS, lifetimeMs / 2));
}

export interface SessionListeners {
  middleware: Middleware;
  extra: SessionThunkExtra;
}

/**
 * The session's effects inside one store. The slice only records events; these listeners keep
 * localStorage in step with them, carry out the requests (`restoreRequested`,
 * `signOutRequested`) and keep the API token fresh. Whatever needs Firebase goes through
 * `loadSessionModule` (the auth remote); without it, or when it fails to load, the session still
 * ends locally and a renewal simply yields no token.
 */
export function createSessionListeners(loadSessionModule?: LoadSessionModule): SessionListeners {
  const listeners = createListenerMiddleware();
  const startListening = listeners.startListening.withTypes<WithSession, SessionHost['dispatch']>();

  let renewing: Promise<string | null> | null = null;
  /** The token of the session a sign-out is ending now, while it runs. */
  let ending: string | null = null;
  const endingSession = (state: WithSession): boolean => ending !== null && selectToken(state) === ending;
  const renewSession = (host: SessionHost): Promise<string | null> => {
    if (!loadSessionModule || endingSession(host.getState())) return Promise.resolve(null);
    renewing ??= loadSessionModule()
      .then((session) => session.renewSession(host))
      .catch(() => null)
      .finally(() => {
        renewing = null;
      });
    return renewing;
  };

  // The stored session mirrors the store's: written on sign-in (and renewal, and a new name),
  // removed on sign-out. restoreFailed keeps it on purpose (see the slice).
  startListening({
    matcher: isAnyOf(signedIn, profileRenamed),
    effect: (_action, api) => {
      const user = selectSessionUser(api.getState());
      const token = selectToken(api.getState());
      if (user && token) writeStoredSession(user, token);
    },
  });
  startListening({ actionCreator: signedOut, effect: () => clearStoredSession() });

  // Start-up without loading Firebase while our stored token is still valid (the signed-in top
  // bar paints at once, synchronously within this dispatch); an expired token with a remembered
  // user asks the auth remote, and so Firebase, to renew it (`loading` meanwhile).
  startListening({
    actionCreator: restoreRequested,
    effect: async (_action, api) => {
      const stored = readStoredSession();
      if (stored) {
        api.dispatch(signedIn(stored));
        return;
      }
      if (!hasRememberedUser()) {
        api.dispatch(signedOut());
        return;
      }
      if (!loadSessionModule) {
        api.dispatch(restoreFailed());
        return;
      }
      try {
        await (await loadSessionModule()).restoreSession(api);
      } catch (err) {
        console.warn('[session] could not check the remembered session:', err);
        api.dispatch(restoreFailed());
      }
    },
  });

  startListening({
    actionCreator: signOutRequested,
    effect: async (_action, api) => {
      ending = selectToken(api.getState());
      try {
        if (loadSessionModule) await (await loadSessionModule()).signOut(api);
      } catch (err) {
        console.warn('[session] the auth remote could not sign out; ending the session here:', err);
      } finally {
        ending = null;
      }
      // Whatever the auth remote managed, the visitor asked to leave: the session ends here.
      if (selectAuthStatus(api.getState()) !== 'signedOut') {
        api.dispatch(baseApi.util.resetApiState());
        api.dispatch(signedOut());
      }
    },
  });

  // Keeps the API token fresh while the page is open: a minute or two before it expires the auth
  // remote trades the Firebase session for a new one (loading Firebase only then). Each new token
  // (or a sign-out) cancels the wait for the previous one. The API also answers an expired token
  // 401, which renews too (base-api), e.g. after a laptop slept.
  startListening({
    matcher: isAnyOf(signedIn, signedOut, restoreFailed),
    effect: async (_action, api) => {
      api.cancelActiveListeners();
      const token = selectToken(api.getState());
      const exp = token ? readTokenClaims(token)?.exp : undefined;
      if (!exp) return;
      await api.delay(renewalDelay(exp * 1000 - Date.now()));
      await renewSession(api);
    },
  });

  const sendVerificationMail = async (host: SessionHost): Promise<void> => {
    if (!loadSessionModule) throw new Error('Signing in is not available on this page.');
    await (await loadSessionModule()).sendVerificationMail(host);
  };

  return { middleware: listeners.middleware, extra: { renewSession, sendVerificationMail, endingSession } };
}
