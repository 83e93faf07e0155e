import {
  GoogleAuthProvider,
  browserPopupRedirectResolver,
  createUserWithEmailAndPassword,
  sendEmailVerification,
  sendPasswordResetEmail,
  signInWithCredential,
  signInWithEmailAndPassword,
  signInWithPopup,
  updateProfile,
} from 'firebase/auth';
import type { AppDispatch } from '@motoparts/state';
import { firebaseAuth, usesEmulator } from '../../lib/firebase';
import { completeSignIn } from '../../lib/token-exchange';

/** The demo Google account the emulator signs in (docs/architecture.md): Google's popup needs the internet. */
export const EMULATOR_GOOGLE_ACCOUNT = {
  sub: 'demo-google-rider',
  email: 'google.rider@motoparts.test',
  email_verified: true,
  name: 'Google Rider',
};

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
  // The address is verified from the link in this mail; until then the account may hold fewer
  // unpaid orders (docs/product.md). A mail that cannot be sent now can be asked for again later.
  await sendEmailVerification(user, { url: new URL('/login', window.location.origin).href }).catch(
    (err: unknown) => console.warn('[auth] the verification mail was not sent:', err),
  );
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

/**
 * Firebase's password reset mail for this address. Its link leads back to this site's /login
 * (the continue URL: with a real Firebase project its host must be one of the authorized domains).
 */
export async function sendPasswordReset(email: string): Promise<void> {
  await sendPasswordResetEmail(firebaseAuth(), email, {
    url: new URL('/login', window.location.origin).href,
  });
}
