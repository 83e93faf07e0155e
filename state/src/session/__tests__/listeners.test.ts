import { clearAllListeners } from '@reduxjs/toolkit';
import { baseApi } from '../../base-api';
import { setConfig, type RuntimeConfig } from '../../runtime-config';
import { makeStore, type AppStore } from '../../store';
import type { SessionHost, SessionModule } from '../contract';
import { renewalDelay } from '../listeners';
import {
  profileRenamed,
  restoreFailed,
  restoreRequested,
  signedIn,
  signedOut,
  signOutRequested,
} from '../slice';
import { selectAuth, selectAuthStatus, selectToken, startingSession } from '../state';
import { jwt, MemoryStorage, rider } from './helpers';

const probeApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<{ ok: boolean }, string>({ query: (path) => path }),
    myOrders: build.query<{ ok: boolean }, void>({
      query: () => '/my-orders',
      extraOptions: { signOutOnForbidden: true },
    }),
  }),
});

/**
 * Every store a test makes; their listeners are stopped after it. A signed-in store waits for its
 * token's renewal (minutes away), and that timer kept Jest from exiting for as long.
 */
const stores: AppStore[] = [];
function newStore(...args: Parameters<typeof makeStore>): AppStore {
  const store = makeStore(...args);
  stores.push(store);
  return store;
}

let storage: MemoryStorage;
beforeEach(() => {
  storage = new MemoryStorage();
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  for (const store of stores.splice(0)) store.dispatch(clearAllListeners());
  jest.restoreAllMocks();
  jest.useRealTimers();
});

/** Lets the listeners' pending promises (module load, module call) run to the end. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** An auth remote's session module that behaves like the real one, minus Firebase. */
function fakeModule(overrides: Partial<SessionModule> = {}) {
  return {
    restoreSession: jest.fn(async (host: SessionHost) => void host.dispatch(signedOut())),
    renewSession: jest.fn(async (): Promise<string | null> => null),
    signOut: jest.fn(async (host: SessionHost) => {
      host.dispatch(baseApi.util.resetApiState());
      host.dispatch(signedOut());
    }),
    ...overrides,
  };
}

function storeSession(token: string) {
  storage.setItem('accessToken', token);
  storage.setItem('motoparts.sessionUser', JSON.stringify(rider));
}

describe('the stored session mirrors the store', () => {
  it('signedIn writes the token and the user; a new name is written too', () => {
    const store = newStore();
    store.dispatch(signedIn({ user: rider, token: 'tok', admin: false }));
    expect(storage.getItem('accessToken')).toBe('tok');
    expect(JSON.parse(storage.getItem('motoparts.sessionUser') ?? 'null')).toEqual(rider);

    store.dispatch(profileRenamed({ displayName: 'Rider Two' }));
    expect(JSON.parse(storage.getItem('motoparts.sessionUser') ?? 'null')).toEqual({
      ...rider,
      displayName: 'Rider Two',
    });
  });

  it('signedOut clears both keys and leaves the rest of localStorage alone', () => {
    const store = newStore();
    store.dispatch(signedIn({ user: rider, token: 'tok', admin: false }));
    storage.setItem('other', 'kept');
    store.dispatch(signedOut());
    expect(storage.getItem('accessToken')).toBeNull();
    expect(storage.getItem('motoparts.sessionUser')).toBeNull();
    expect(storage.getItem('other')).toBe('kept');
  });

  it('a session that could not be checked stays stored for the next visit', () => {
    storeSession('expired');
    newStore().dispatch(restoreFailed());
    expect(storage.getItem('accessToken')).toBe('expired');
    expect(storage.getItem('motoparts.sessionUser')).not.toBeNull();
  });
});

describe('restoreRequested (start-up)', () => {
  it('signs in from a valid stored session at once, without loading the auth remote', () => {
    const token = jwt({ email: rider.email, admin: true, exp: Date.now() / 1000 + 600 });
    storeSession(token);
    const load = jest.fn(async () => fakeModule());
    const store = newStore({ loadSessionModule: load });
    store.dispatch(restoreRequested());
    // Synchronously: the first render already shows the signed-in top bar.
    expect(selectAuth(store.getState())).toEqual({ status: 'signedIn', user: rider, token, admin: true });
    expect(load).not.toHaveBeenCalled();
    store.dispatch(signedOut());
  });

  it('with nothing stored, is signed out without loading the auth remote', () => {
    const load = jest.fn(async () => fakeModule());
    const store = newStore({ loadSessionModule: load });
    store.dispatch(restoreRequested());
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(load).not.toHaveBeenCalled();
  });

  it('asks the auth remote to restore an expired session of a remembered user (loading meanwhile)', async () => {
    storeSession(jwt({ email: rider.email, exp: 1 }));
    const session = fakeModule({
      restoreSession: jest.fn(async (host: SessionHost) => {
        host.dispatch(signedIn({ user: rider, token: 'renewed', admin: false }));
      }),
    });
    const store = newStore({ loadSessionModule: async () => session });
    store.dispatch(restoreRequested());
    expect(selectAuthStatus(store.getState())).toBe('loading');
    await settle();
    expect(session.restoreSession).toHaveBeenCalledTimes(1);
    expect(selectToken(store.getState())).toBe('renewed');
    expect(storage.getItem('accessToken')).toBe('renewed');
  });

  it.each([
    ['the auth remote does not load', () => Promise.reject(new Error('remote down'))],
    ['there is no auth remote (a remote running alone)', undefined],
  ])('when %s, goes on signed out but keeps the remembered user', async (_case, load) => {
    const expired = jwt({ email: rider.email, exp: 1 });
    storeSession(expired);
    const store = newStore({ loadSessionModule: load });
    store.dispatch(restoreRequested());
    await settle();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(storage.getItem('accessToken')).toBe(expired);
    expect(storage.getItem('motoparts.sessionUser')).not.toBeNull();
  });
});

describe('startingSession (the frame before the store loads)', () => {
  it.each([
    [
      'a valid stored session',
      () => storeSession(jwt({ email: rider.email, admin: true, exp: Date.now() / 1000 + 600 })),
      'signedIn',
    ],
    ['nothing stored', () => undefined, 'signedOut'],
    [
      'a remembered user whose token expired',
      () => storeSession(jwt({ email: rider.email, exp: 1 })),
      'loading',
    ],
  ])('with %s, is the session the store starts with', (_case, arrange, status) => {
    arrange();
    const expected = startingSession();
    expect(expected.status).toBe(status);
    const store = newStore({ loadSessionModule: () => new Promise<SessionModule>(() => undefined) });
    store.dispatch(restoreRequested());
    expect(selectAuth(store.getState())).toEqual(expected);
  });
});

describe('signOutRequested', () => {
  function signedInStore(loadSessionModule?: () => Promise<SessionModule>) {
    const store = newStore({ loadSessionModule });
    store.dispatch(signedIn({ user: rider, token: 'tok', admin: false }));
    // Something cached for this visitor, which must not outlive the session.
    store.dispatch(probeApi.util.upsertQueryData('probe', '/orders', { ok: true }));
    return store;
  }

  it('is carried out by the auth remote, which gets the store', async () => {
    const seen: (string | null)[] = [];
    const real = fakeModule();
    const session = fakeModule({
      signOut: jest.fn(async (host: SessionHost) => {
        // The token to end on the API.
        seen.push(selectToken(host.getState()));
        await real.signOut(host);
      }),
    });
    const store = signedInStore(async () => session);
    store.dispatch(signOutRequested());
    // A request, not the sign-out itself: nothing changes until the auth remote has done it.
    expect(selectAuthStatus(store.getState())).toBe('signedIn');
    await settle();
    expect(session.signOut).toHaveBeenCalledTimes(1);
    expect(seen).toEqual(['tok']);
    expect(store.getState().api.queries).toEqual({});
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(storage.getItem('accessToken')).toBeNull();
  });

  it.each([
    ['the auth remote does not load', () => Promise.reject(new Error('remote down'))],
    [
      'the auth remote fails before signing out',
      async () => fakeModule({ signOut: jest.fn(() => Promise.reject(new Error('firebase'))) }),
    ],
    ['there is no auth remote (a remote running alone)', undefined],
  ])('still ends the local session when %s', async (_case, load) => {
    const store = signedInStore(load);
    await settle();
    store.dispatch(signOutRequested());
    await settle();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(storage.getItem('accessToken')).toBeNull();
    expect(storage.getItem('motoparts.sessionUser')).toBeNull();
    expect(store.getState().api.queries).toEqual({});
  });
});

describe('token renewal', () => {
  const config: RuntimeConfig = {
    apiBaseUrl: 'http://api.test',
    remotes: { storefront: '', auth: '', dashboard: '' },
    firebase: { apiKey: 'k', authDomain: 'd', projectId: 'p' },
    stripePublishableKey: 'pk',
  };

  it('waits until two minutes before expiry, at most half the token’s remaining life', () => {
    expect(renewalDelay(15 * 60_000)).toBe(13 * 60_000);
    expect(renewalDelay(60_000)).toBe(30_000);
    expect(renewalDelay(-5_000)).toBe(0);
  });

  it('renews shortly before the token expires, then again for the new token', async () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 0, 1) });
    const tokenFor = (minutes: number) => jwt({ email: rider.email, exp: Date.now() / 1000 + minutes * 60 });
    const session = fakeModule({
      renewSession: jest.fn(async (host: SessionHost) => {
        const token = tokenFor(15);
        host.dispatch(signedIn({ user: rider, token, admin: false }));
        return token;
      }),
    });
    const store = newStore({ loadSessionModule: async () => session });
    store.dispatch(signedIn({ user: rider, token: tokenFor(15), admin: false }));

    await jest.advanceTimersByTimeAsync(13 * 60_000 - 1);
    expect(session.renewSession).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(session.renewSession).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(13 * 60_000);
    expect(session.renewSession).toHaveBeenCalledTimes(2);

    store.dispatch(signedOut());
    await jest.advanceTimersByTimeAsync(60 * 60_000);
    expect(session.renewSession).toHaveBeenCalledTimes(2);
  });

  it('a 401 renews the token once for every request refused together, then retries', async () => {
    setConfig(config);
    const session = fakeModule({
      renewSession: jest.fn(async (host: SessionHost) => {
        await settle();
        host.dispatch(signedIn({ user: rider, token: 'new', admin: false }));
        return 'new';
      }),
    });
    const fetchMock = jest.fn(async (request: Request) => {
      const ok = request.headers.get('authorization') === 'Bearer new';
      return new Response(JSON.stringify(ok ? { ok } : { error: { code: 'UNAUTHORIZED' } }), {
        status: ok ? 200 : 401,
        headers: { 'content-type': 'application/json' },
      });
    });
    jest.spyOn(globalThis, 'fetch').mockImplementation(fetchMock as typeof fetch);
    const store = newStore({ loadSessionModule: async () => session });
    store.dispatch(signedIn({ user: rider, token: 'old', admin: false }));

    const [a, b] = await Promise.all([
      store.dispatch(probeApi.endpoints.probe.initiate('/a')),
      store.dispatch(probeApi.endpoints.probe.initiate('/b')),
    ]);
    expect(session.renewSession).toHaveBeenCalledTimes(1);
    expect([a.data, b.data]).toEqual([{ ok: true }, { ok: true }]);
    expect(selectAuthStatus(store.getState())).toBe('signedIn');
    expect(storage.getItem('accessToken')).toBe('new');
  });

  it.each([
    [
      'a 401 that no renewal fixes',
      401,
      (store: AppStore) => store.dispatch(probeApi.endpoints.probe.initiate('/a')),
    ],
    ['a 403 on My Order', 403, (store: AppStore) => store.dispatch(probeApi.endpoints.myOrders.initiate())],
  ])('%s signs out and clears the stored session', async (_case, status, request) => {
    setConfig(config);
    jest
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async () => new Response('{}', { status, headers: { 'content-type': 'application/json' } }),
      );
    const session = fakeModule();
    const store = newStore({ loadSessionModule: async () => session });
    store.dispatch(signedIn({ user: rider, token: 'old', admin: false }));
    await request(store);
    expect(session.renewSession).toHaveBeenCalledTimes(status === 401 ? 1 : 0);
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    expect(storage.getItem('accessToken')).toBeNull();
  });

  it('a call the API refuses while a sign-out is under way neither renews nor ends the session before the sign-out does', async () => {
    setConfig(config);
    // The API has recorded the sign-out (every call with the old token is a 401) but has not
    // answered it yet: the sign-out ends the session only once that answer is in.
    let answerSignOut = () => undefined as void;
    const answered = new Promise<void>((resolve) => (answerSignOut = resolve));
    const real = fakeModule();
    const session = fakeModule({
      signOut: jest.fn(async (host: SessionHost) => {
        await answered;
        await real.signOut(host);
      }),
    });
    jest
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async () => new Response('{}', { status: 401, headers: { 'content-type': 'application/json' } }),
      );
    const store = newStore({ loadSessionModule: async () => session });
    store.dispatch(signedIn({ user: rider, token: 'old', admin: false }));
    store.dispatch(signOutRequested());
    await settle();

    const refused = await store.dispatch(probeApi.endpoints.probe.initiate('/cart'));
    expect(refused.error).toMatchObject({ status: 401 });
    expect(session.renewSession).not.toHaveBeenCalled();
    expect(selectAuthStatus(store.getState())).toBe('signedIn');

    answerSignOut();
    await settle();
    await settle();
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
    // Once it is over, a refusal renews and signs out as usual again.
    store.dispatch(signedIn({ user: rider, token: 'next', admin: false }));
    await store.dispatch(probeApi.endpoints.probe.initiate('/cart', { forceRefetch: true }));
    expect(session.renewSession).toHaveBeenCalledTimes(1);
    expect(selectAuthStatus(store.getState())).toBe('signedOut');
  });

  it('a 403 elsewhere is only "not allowed"', async () => {
    setConfig(config);
    jest
      .spyOn(globalThis, 'fetch')
      .mockImplementation(
        async () => new Response('{}', { status: 403, headers: { 'content-type': 'application/json' } }),
      );
    const store = newStore();
    store.dispatch(signedIn({ user: rider, token: 'tok', admin: false }));
    await store.dispatch(probeApi.endpoints.probe.initiate('/admin-only'));
    expect(selectAuthStatus(store.getState())).toBe('signedIn');
  });
});
