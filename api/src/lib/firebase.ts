import { getApps, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth, type DecodedIdToken, type UserRecord } from 'firebase-admin/auth';
import type { Env } from './env';
import { AppError } from './app-error';

let app: App | undefined;

/**
 * firebase-admin reads FIREBASE_AUTH_EMULATOR_HOST from process.env; we copy the parsed value
 * there so the validated env is the single source.
 */
export function firebaseAuth(env: Env): Auth {
  if (env.FIREBASE_AUTH_EMULATOR_HOST)
    process.env.FIREBASE_AUTH_EMULATOR_HOST = env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!app) {
    app =
      getApps().find((a) => a.name === 'motoparts-api') ??
      initializeApp({ projectId: env.FIREBASE_PROJECT_ID }, 'motoparts-api');
  }
  return getAuth(app);
}

/** Verifies a Firebase ID token (signature, audience, expiry) and returns its claims. */
export async function verifyFirebaseIdToken(env: Env, idToken: string): Promise<DecodedIdToken> {
  try {
    return await firebaseAuth(env).verifyIdToken(idToken);
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code.startsWith('auth/')) throw AppError.unauthenticated('The Firebase ID token is not valid.');
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Could not verify the sign-in with the auth provider; try again.',
    );
  }
}

/**
 * The Firebase account as it is now. A deleted account is refused (401), and so is a disabled one:
 * renewing the API token goes through here, so either ends API access within one token lifetime.
 */
export async function getFirebaseAccount(env: Env, uid: string): Promise<UserRecord> {
  let account: UserRecord;
  try {
    account = await firebaseAuth(env).getUser(uid);
  } catch (err) {
    const code = (err as { code?: string }).code ?? '';
    if (code === 'auth/user-not-found') throw AppError.unauthenticated('This account no longer exists.');
    throw new AppError(
      'SERVICE_UNAVAILABLE',
      'Could not verify the sign-in with the auth provider; try again.',
    );
  }
  if (account.disabled) throw AppError.unauthenticated('This account is disabled.');
  return account;
}
