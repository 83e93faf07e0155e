import { createAction, createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { SessionThunkExtra } from './contract';
import type { WithSession } from './state';
import { INITIAL_SESSION, NO_SESSION, type Session } from './state';

export const sessionSlice = createSlice({
  name: 'session',
  initialState: INITIAL_SESSION,
  reducers: {
    /** A sign-in, a renewal or a stored session read at start-up. Persisted by the session listeners. */
    signedIn(_state, action: PayloadAction<Session>) {
      return { status: 'signedIn', ...action.payload };
    },
    /** The session is over (sign-out, a refused token, no session at start-up). Storage is cleared. */
    signedOut: () => NO_SESSION,
    /**
     * A remembered user's expired session could not be checked because the auth remote did not
     * load. The page goes on signed out, but storage keeps the user so the next visit tries again.
     */
    restoreFailed: () => NO_SESSION,
    profileRenamed(state, action: PayloadAction<{ displayName: string | null; photoURL?: string | null }>) {
      if (!state.user) return;
      state.user.displayName = action.payload.displayName;
      if (action.payload.photoURL !== undefined) state.user.photoURL = action.payload.photoURL;
    },
  },
});

export const { signedIn, signedOut, restoreFailed, profileRenamed } = sessionSlice.actions;

/**
 * Requests: they change no state themselves, the session listeners carry them out.
 * `restoreRequested`: a page starts, find out who is signed in. `signOutRequested`: the visitor
 * asked to sign out (the auth remote ends the API and Firebase sessions, then `signedOut`).
 */
export const restoreRequested = createAction('session/restoreRequested');
export const signOutRequested = createAction('session/signOutRequested');

/**
 * Asks the auth remote for Firebase's verification mail (again): what a page offers when the API
 * refuses an unverified account's second hold. Rejects with Firebase's reason.
 */
export const requestVerificationMail = createAsyncThunk<
  void,
  void,
  { extra: SessionThunkExtra; state: WithSession }
>('session/requestVerificationMail', async (_arg, { dispatch, getState, extra }) => {
  await extra.sendVerificationMail({ dispatch, getState });
});
