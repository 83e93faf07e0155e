/**
 * The auth remote's effects on the shared store: turn a Firebase user into our session (token
 * exchange, stored `accessToken`, `signedIn`), renew it, and end it. The shell calls
 * `restoreSession` and `signOut` through this exposed module.
 */
import {
  GoogleAuthProvider,
  browserPopupRedirectResolver,
  createUserWithEmailAndPassword,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut as firebaseSignOut,
  updateProfile,
  type User,
} from 'firebase/auth';
import {
  baseApi,
  clearStoredSession,
  signedIn,
  signedOut,
  storeSession,
  type AppDispatch,
  type AppStore,
  type SessionUser,
} from '@motoparts/state';
import { authApi } from './auth-api';
import { firebaseAuth, usesEmulator } from './firebase';

/** The demo Google account the emulator signs in (docs/architecture.md): Google's popup needs the internet. */
export const EMULATOR_GOOGLE_ACCOUNT = {
  sub: 'demo-google-rider',
  email: 'google.rider@motoparts.test',
  email_verified: true,
  name: 'Google Rider',
};

/**
 * Exchanges the Firebase ID token for our API token and records the session everywhere. A
 * renewal (same person, new token) keeps the cached data; a sign-in starts from a clean cache.
 */
export async function completeSignIn(
  dispatch: AppDispatch,
  user: User,
  forceRefresh = false,
  { renewal = false } = {},
): Promise<string> {
  if (!user.email) throw new Error('This account has no email address, so it cannot sign in here.');
  const idToken = await user.getIdToken(forceRefresh);
  const { token, admin } = await dispatch(
    authApi.endpoints.exchangeToken.initiate({ email: user.email, idToken }),
  ).unwrap();
  const sessionUser: SessionUser = {
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
  };
  storeSession(sessionUser, token);
  // Data cached for a previous visitor (their orders, their profile) must not leak into this session.
  if (!renewal) dispatch(baseApi.util.resetApiState());
  dispatch(signedIn({ user: sessionUser, token, admin }));
  return token;
}

export async function signInWithPassword(
  dispatch: AppDispatch,
  email: string,
  password: string,
): Promise<void> {
  const { user } = await signInWithEmailAndPassword(firebaseAuth(), email, password);
  await completeSignIn(dispatch, user);
}

export async function signUpWithPassword(
  dispatch: AppDispatch,
  name: string,
  email: string,
  password: string,
): Promise<void> {
  const { user } = await createUserWithEmailAndPassword(firebaseAuth(), email, password);
  await updateProfile(user, { displayName: name });
  // A fresh ID token carries the new display name to the API's user record.
  await completeSignIn(dispatch, user, true);
}

export async function signInWithGoogle(dispatch: AppDispatch): Promise<void> {
  const auth = firebaseAuth();
  const { user } = usesEmulator()
    ? // The emulator accepts an unsigned ID token JSON as the Google credential.
      await signInWithCredential(auth, GoogleAuthProvider.credential(JSON.stringify(EMULATOR_GOOGLE_ACCOUNT)))
    : await signInWithPopup(auth, new GoogleAuthProvider(), browserPopupRedirectResolver);
  await completeSignIn(dispatch, user);
}

/** Our token expired but Firebase may still know the user: renew the API token, or sign out. */
export async function restoreSession(store: AppStore): Promise<void> {
  try {
    const auth = firebaseAuth();
    await auth.authStateReady();
    if (auth.currentUser) {
      await completeSignIn(store.dispatch, auth.currentUser);
      return;
    }
  } catch (err) {
    console.warn('[auth] could not restore the session:', err);
  }
  clearStoredSession();
  store.dispatch(signedOut());
}

/**
 * Our API tokens are short-lived: the shell calls this before one expires (and when the API
 * refuses an expired one). Firebase keeps its own session, so the person notices nothing; a
 * deleted or disabled account, or one signed out elsewhere, is signed out here.
 */
export async function renewSession(store: AppStore): Promise<string | null> {
  const auth = firebaseAuth();
  await auth.authStateReady();
  const user = auth.currentUser;
  if (user) {
    try {
      return await completeSignIn(store.dispatch, user, false, { renewal: true });
    } catch (err) {
      const status = (err as { status?: unknown }).status;
      // Only a refusal ends the session; a network blip keeps the current token until it expires.
      if (status !== 401 && status !== 403) return null;
    }
  }
  clearStoredSession();
  store.dispatch(signedOut());
  return null;
}

/** Ends the session on the API, in Firebase, in localStorage and in the store. */
export async function signOut(store: AppStore): Promise<void> {
  const token = store.getState().auth.token;
  try {
    if (token) {
      await store
        .dispatch(authApi.endpoints.endSession.initiate({ token }))
        .unwrap()
        .catch(() => undefined); // best effort: the token also expires on its own within minutes
    }
    await firebaseSignOut(firebaseAuth());
  } finally {
    clearStoredSession();
    store.dispatch(signedOut());
    store.dispatch(baseApi.util.resetApiState());
  }
}
