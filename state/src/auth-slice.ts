import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Who is signed in. The auth remote owns the effects (Firebase, token exchange); the slice lives
 * in the shared kit because the shell's guards and every remote read it from the first render.
 */
export interface SessionUser {
  email: string;
  displayName: string | null;
  photoURL: string | null;
}

export type AuthStatus = 'loading' | 'signedIn' | 'signedOut';

export interface AuthState {
  status: AuthStatus;
  user: SessionUser | null;
  /** Our API token (SPEC: stored as `accessToken`). */
  token: string | null;
  admin: boolean;
}

export const ACCESS_TOKEN_KEY = 'accessToken';
export const SESSION_USER_KEY = 'motoparts.sessionUser';

const initialState: AuthState = { status: 'loading', user: null, token: null, admin: false };

export const authSlice = createSlice({
  name: 'auth',
  initialState,
  reducers: {
    signedIn(_state, action: PayloadAction<{ user: SessionUser; token: string; admin: boolean }>) {
      return { status: 'signedIn', ...action.payload };
    },
    signedOut() {
      return { status: 'signedOut', user: null, token: null, admin: false };
    },
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

export const { signedIn, signedOut, profileRenamed } = authSlice.actions;
export const { selectAuth, selectAuthStatus, selectSessionUser, selectToken, selectIsAdmin } =
  authSlice.selectors;

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
): { user: SessionUser; token: string; admin: boolean } | null {
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

export function storeSession(user: SessionUser, token: string): void {
  localStorage.setItem(ACCESS_TOKEN_KEY, token);
  localStorage.setItem(SESSION_USER_KEY, JSON.stringify(user));
}

export function clearStoredSession(): void {
  localStorage.removeItem(ACCESS_TOKEN_KEY);
  localStorage.removeItem(SESSION_USER_KEY);
}
