import type { User } from 'firebase/auth';
import { sendEmailVerification, signOut as firebaseSignOut } from 'firebase/auth';
import {
  makeStore,
  selectAuthStatus,
  selectToken,
  setConfig,
  signedIn,
  signedOut,
  signOutRequested,
  type SessionHost,
  type SessionModule,
} from '@motoparts/state';
import { firebaseAuth } from '../../../lib/firebase';
import { completeSignIn } from '../../../lib/token-exchange';
import * as session from '../index';

jest.mock('firebase/auth', () => ({ signOut: jest.fn(), sendEmailVerification: jest.fn() }));
jest.mock('../../../lib/firebase', () => ({ firebaseAuth: jest.fn() }));
jest.mock('../../../lib/token-exchange', () => ({ completeSignIn: jest.fn() }));

const rider = { email: 'rider@motoparts.test', displayName: 'Road Rider', photoURL: null };
const firebaseUser = { email: rider.email } as User;

let currentUser: User | null;
let stored: Map<string, string>;
let fetchMock: jest.Mock;

beforeEach(() => {
  jest.clearAllMocks();
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  stored = new Map();
  Object.defineProperty(globalThis, 'localStorage', {
    configurable: true,
    value: {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => void stored.set(k, v),
      removeItem: (k: string) => void stored.delete(k),
    },
  });
  currentUser = firebaseUser;
  jest.mocked(firebaseAuth).mockReturnValue({
    authStateReady: async () => undefined,
    get currentUser() {
      return currentUser;
    },
  } as unknown as ReturnType<typeof firebaseAuth>);
  jest.mocked(firebaseSignOut).mockResolvedValue(undefined);
  jest.mocked(completeSignIn).mockImplementation(async (dispatch: SessionHost['dispatch']) => {
    dispatch(signedIn({ user: rider, token: 'fresh', admin: false }));
    return 'fresh';
  });
  setConfig({
    apiBaseUrl: 'http://api.test',
    remotes: { storefront: '', auth: '', dashboard: '' },
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p' },
    stripePublishableKey: 'pk',
  });
  fetchMock = jest.fn(
    async () => new Response('{"success":true}', { headers: { 'content-type': 'application/json' } }),
  );
  jest.spyOn(globalThis, 'fetch').mockImplementation(fetchMock);
});
afterEach(() => jest.restoreAllMocks());

function signedInStore() {
  const store = makeStore({ loadSessionModule: async () => session });
  store.dispatch(signedIn({ user: rider, token: 'current', admin: false }));
  return store;
}

it('is the session module the shell expects', () => {
  const contract: SessionModule = session;
  expect(Object.keys(contract).sort()).toEqual([
    'renewSession',
    'restoreSession',
    'sendVerificationMail',
    'signOut',
  ]);
});

describe('restoreSession', () => {
  it('signs the Firebase user in again with a new API token', async () => {
    const store = makeStore();
    await session.restoreSession(store);
    expect(completeSignIn).toHaveBeenCalledWith(store.dispatch, firebaseUser);
    expect(selectToken(store.getState())).toBe('fresh');
  });

  it('signs out when Firebase no longer knows anyone', async () => {
    currentUser = null;
    const store = makeStore();
    await session.restoreSession(store);
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
  });
});

describe('renewSession', () => {
  it('trades the Firebase session for a new token, keeping the cached data', async () => {
    const store = signedInStore();
    await expect(session.renewSession(store)).resolves.toBe('fresh');
    expect(completeSignIn).toHaveBeenCalledWith(store.dispatch, firebaseUser, false, {
      renewal: expect.any(Function),
    });
  });

  it('lands only while the session it renews is the current one', async () => {
    let stillCurrent: boolean | undefined;
    jest.mocked(completeSignIn).mockImplementation(async (_dispatch, _user, _force, options) => {
      // The visitor signs out while the exchange is on its way.
      store.dispatch(signedOut());
      stillCurrent = options?.renewal?.();
      return null;
    });
    const store = signedInStore();
    await expect(session.renewSession(store)).resolves.toBeNull();
    expect(stillCurrent).toBe(false);
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
  });

  it('a refusal that arrives after a new sign-in leaves that session alone', async () => {
    jest.mocked(completeSignIn).mockImplementation(async (dispatch: SessionHost['dispatch']) => {
      // Signed out and in again (another account) while the old session's renewal was refused.
      dispatch(signedIn({ user: rider, token: 'newer', admin: false }));
      throw { status: 401 };
    });
    const store = signedInStore();
    await expect(session.renewSession(store)).resolves.toBeNull();
    expect(selectToken(store.getState())).toBe('newer');
    expect(stored.get('accessToken')).toBe('newer');
  });

  it.each([401, 403])('signs out when the API refuses the account (%i)', async (status) => {
    jest.mocked(completeSignIn).mockRejectedValue({ status });
    const store = signedInStore();
    await expect(session.renewSession(store)).resolves.toBeNull();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(stored.get('accessToken')).toBeUndefined();
  });

  it('keeps the current token through a network failure', async () => {
    jest.mocked(completeSignIn).mockRejectedValue({ status: 'FETCH_ERROR' });
    const store = signedInStore();
    await expect(session.renewSession(store)).resolves.toBeNull();
    expect(selectToken(store.getState())).toBe('current');
  });
});

describe('signOut (signOutRequested)', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('ends the API session with our token, signs out of Firebase and forgets the visitor', async () => {
    const store = signedInStore();
    store.dispatch(signOutRequested());
    await settle();
    const request = fetchMock.mock.calls[0]?.[0] as Request;
    expect(request.method).toBe('DELETE');
    expect(request.url).toBe('http://api.test/session');
    expect(request.headers.get('authorization')).toBe('Bearer current');
    expect(firebaseSignOut).toHaveBeenCalledTimes(1);
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(stored.size).toBe(0);
    expect(store.getState().api.mutations).toEqual({});
  });

  it('still ends the session when the API and Firebase fail', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    jest.mocked(firebaseSignOut).mockRejectedValue(new Error('auth/network-request-failed'));
    const store = signedInStore();
    store.dispatch(signOutRequested());
    await settle();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(stored.size).toBe(0);
  });
});

describe('sendVerificationMail', () => {
  it('asks Firebase to mail the signed-in address, with a link back to /login', async () => {
    Object.defineProperty(globalThis, 'window', {
      configurable: true,
      value: { location: { origin: 'http://shop.test' } },
    });
    await session.sendVerificationMail();
    expect(sendEmailVerification).toHaveBeenCalledWith(firebaseUser, { url: 'http://shop.test/login' });
  });

  it('refuses without a Firebase session here', async () => {
    currentUser = null;
    await expect(session.sendVerificationMail()).rejects.toThrow(/Sign in again/);
    expect(sendEmailVerification).not.toHaveBeenCalled();
  });
});
