import { createAction, createSlice, type PayloadAction } from '@reduxjs/toolkit';

export interface SessionUser {
  email: string;
  displayName: string | null;
  photoURL: string | null;
}

/** `loading` until the start-up knows who is there (from storage, or through the auth remote). */
export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

/** What a sign-in (or a renewal) establishes. */
export interface Session {
  user: SessionUser;
  /** Our API token, kept in localStorage as `accessToken` (docs/product.md). */
  token: string;
  /** Read from the token: the API decides who is an admin. */
  admin: boolean;
}

export interface SessionState {
  status: AuthStatus;
  user: SessionUser | null;
  token: string | null;
  admin: boolean;
}

const initialState: SessionState = { status: 'loading', user: null, token: null, admin: false };
const noSession: SessionState = { status: 'signedOut', user: null, token: null, admin: false };

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    /** A sign-in, a renewal or a stored session read at start-up. Persisted by the session listeners. */
    signedIn(_state, action: PayloadAction<Session>) {
      return { status: 'signedIn', ...action.payload };
    },
    /** The session is over (sign-out, a refused token, no session at start-up). Storage is cleared. */
    signedOut: () => noSession,
    /**
     * A remembered user's expired session could not be checked because the auth remote did not
     * load. The page goes on signed out, but storage keeps the user so the next visit tries again.
     */
    restoreFailed: () => noSession,
    profileRenamed(state, action: PayloadAction<{ displayName: string | null; photoURL?: string | null }>) {
      if (!state.user) return;
      state.user.displayName = action.payload.displayName;
      if (action.payload.photoURL !== undefined) state.user.photoURL = action.payload.photoURL;
    },
  },
  selectors: {
    selectAuth: (state) => state,
    selectAuthStatus: (state) => state.status,
    selectSessionUser: (state) => state.user,
    selectToken: (state) => state.token,
    selectIsAdmin: (state) => state.admin,
  },
});

export const { signedIn, signedOut, restoreFailed, profileRenamed } = sessionSlice.actions;
export const { selectAuth, selectAuthStatus, selectSessionUser, selectToken, selectIsAdmin } =
  sessionSlice.selectors;

/**
 * Requests: they change no state themselves, the session listeners carry them out.
 * `restoreRequested`: a page starts, find out who is signed in. `signOutRequested`: the visitor
 * asked to sign out (the auth remote ends the API and Firebase sessions, then `signedOut`).
 */
export const restoreRequested = createAction('session/restoreRequested');
export const signOutRequested = createAction('session/signOutRequested');
