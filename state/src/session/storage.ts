import type { Session, SessionUser } from './types';

/**
 * The session as the browser remembers it between visits. Only the session listeners write or
 * clear these keys (they mirror `signedIn` and `signedOut`); anyone may read them.
 */
export const ACCESS_TOKEN_KEY = 'accessToken';
export const SESSION_USER_KEY = 'motoparts.sessionUser';

interface JwtClaims {
  exp?: number;
  email?: string;
  admin?: boolean;
}

/** Reads (does not verify: the API does) the claims of our JWT to know if it is still usable. */
export function readTokenClaims(token: string): JwtClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    return JSON.parse(json) as JwtClaims;
  } catch {
    return null;
  }
}

/**
 * The session as stored by the last sign-in, if its token has not expired. Lets the shell render
 * the signed-in top bar and protected routes without loading Firebase.
 */
export function readStoredSession(
  storage: Pick<Storage, 'getItem'> = localStorage,
  now = Date.now(),
): Session | null {
  const token = storage.getItem(ACCESS_TOKEN_KEY);
  const rawUser = storage.getItem(SESSION_USER_KEY);
  if (!token || !rawUser) return null;
  const claims = readTokenClaims(token);
  if (!claims?.exp || claims.exp * 1000 <= now) return null;
  try {
    const user = JSON.parse(rawUser) as SessionUser;
    if (typeof user.email !== 'string' || user.email !== claims.email) return null;
    return { user, token, admin: claims.admin === true };
  } catch {
    return null;
  }
}

/** Someone signed in on this browser before, even if their token has expired since. */
export function hasRememberedUser(storage: Pick<Storage, 'getItem'> = localStorage): boolean {
  return storage.getItem(SESSION_USER_KEY) !== null;
}

export function writeStoredSession(
  user: SessionUser,
  token: string,
  storage: Pick<Storage, 'setItem'> = localStorage,
): void {
  storage.setItem(ACCESS_TOKEN_KEY, token);
  storage.setItem(SESSION_USER_KEY, JSON.stringify(user));
}

export function clearStoredSession(storage: Pick<Storage, 'removeItem'> = localStorage): void {
  storage.removeItem(ACCESS_TOKEN_KEY);
  storage.removeItem(SESSION_USER_KEY);
}
