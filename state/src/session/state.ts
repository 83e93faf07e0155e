import { hasRememberedUser, readStoredSession } from './storage';

export type { AuthStatus, Session, SessionUser } from './types';
import type { AuthStatus, SessionUser } from './types';

export interface SessionState {
  status: AuthStatus;
  user: SessionUser | null;
  token: string | null;
  admin: boolean;
}

export const INITIAL_SESSION: SessionState = { status: 'loading', user: null, token: null, admin: false };
export const NO_SESSION: SessionState = { status: 'signedOut', user: null, token: null, admin: false };

/**
 * The selectors, plain functions of the root state rather than the slice's own, so the page
 * frame can read a session before Redux Toolkit has loaded (the shell's deferred store).
 */
export interface WithSession {
  session: SessionState;
}
export const selectAuth = (state: WithSession): SessionState => state.session;
export const selectAuthStatus = (state: WithSession): AuthStatus => state.session.status;
export const selectSessionUser = (state: WithSession): SessionUser | null => state.session.user;
export const selectToken = (state: WithSession): string | null => state.session.token;
export const selectIsAdmin = (state: WithSession): boolean => state.session.admin;

/**
 * The session a page starts with, read from storage exactly as the store's start-up reads it
 * (`restoreRequested`): signed in while the stored token is valid, signed out when nobody is
 * remembered, and `loading` while a remembered user's expired token waits for the auth remote.
 */
export function startingSession(storage: Pick<Storage, 'getItem'> = localStorage): SessionState {
  const stored = readStoredSession(storage);
  if (stored) return { status: 'signedIn', ...stored };
  return hasRememberedUser(storage) ? INITIAL_SESSION : NO_SESSION;
}
