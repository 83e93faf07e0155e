/** The session's shapes, apart from its state and storage so that both can use them. */

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
