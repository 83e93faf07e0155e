import { useEffect, type ReactNode } from 'react';
import { matchPath, Navigate, useLocation } from 'react-router-dom';
import {
  assetUrl,
  catalogApi,
  makeStore,
  profileApi,
  restoreRequested,
  selectAuthStatus,
  selectSessionUser,
  signOutRequested,
  StoreProvider,
  type AppStore,
  useAppSelector,
  useAppStore,
  type LoadSessionModule,
} from '@motoparts/state';
import type { Part, Review } from '@motoparts/contracts';
import { pageAt } from './page-table';
import type { PageRoute } from './routes';

/**
 * The shell's Redux half, in its own chunk: the real store and what needs it around a page
 * (the route guard and the page's early data request). Loaded before the first render on every
 * page but the home page, whose first screen renders without it (bootstrap.tsx).
 */
export function createStore(loadSessionModule: LoadSessionModule) {
  const store = makeStore({ loadSessionModule });
  // Within this dispatch a valid stored session is already signed in (no Firebase loaded).
  store.dispatch(restoreRequested());
  return store;
}

/** The visitor asked to sign out (the session listeners end the session). */
export function requestSignOut(store: AppStore): void {
  store.dispatch(signOutRequested());
}

/** docs/product.md: Loading... while auth resolves; signed-out visitors go to /login and come back. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const status = useAppSelector(selectAuthStatus);
  const location = useLocation();
  if (status === 'loading') return <p className="page-loading">Loading...</p>;
  if (status === 'signedOut') return <Navigate to="/login" replace state={{ from: location }} />;
  return <>{children}</>;
}

/**
 * Starts the requests for the data a page declares (RemoteRoute.prefetch) at `pathname`, in
 * parallel with the remote's code, and fetches the part's photo as soon as the part is known: the
 * page then renders with them already here instead of asking once its chunk has arrived. Returns
 * the release of those requests' hold on the cache (none with `subscribe: false`: kept for the
 * cache's usual minute, which the page, arriving within it, takes over).
 */
function prefetchPage(
  store: AppStore,
  page: PageRoute,
  pathname: string,
  subscribe = true,
  early?: unknown,
): () => void {
  const wanted = page.prefetch;
  const requests: { unsubscribe(): void }[] = [];
  const partId = wanted?.part ? matchPath(page.path, pathname)?.params[wanted.part] : undefined;
  if (partId) {
    // The part index.html's inline script already fetched for the stand-in: the same public
    // answer, so the cache starts with it and the request below finds it there.
    if ((early as Part | undefined)?._id === partId) {
      store.dispatch(
        catalogApi.util.upsertQueryEntries([{ endpointName: 'getPart', arg: partId, value: early as Part }]),
      );
    }
    const request = store.dispatch(catalogApi.endpoints.getPart.initiate(partId, { subscribe }));
    request.unwrap().then(
      (part) => {
        new Image().src = assetUrl(part.img);
      },
      () => undefined, // the page shows the error when it asks
    );
    requests.push(request);
  }
  if (wanted?.reviews) {
    // The reviews index.html's inline script fetched for the stand-in, as for a part: the page
    // then renders the list it already shows, instead of "Loading..." in its place.
    if (Array.isArray(early)) {
      store.dispatch(
        catalogApi.util.upsertQueryEntries([
          { endpointName: 'getReviews', arg: undefined, value: early as Review[] },
        ]),
      );
    }
    requests.push(store.dispatch(catalogApi.endpoints.getReviews.initiate(undefined, { subscribe })));
  }
  const email = selectSessionUser(store.getState())?.email;
  if (wanted?.profileAt && email && matchPath(wanted.profileAt, pathname)) {
    requests.push(store.dispatch(profileApi.endpoints.getProfile.initiate(email, { subscribe })));
  }
  return () => requests.forEach((request) => request.unsubscribe());
}

/**
 * On a cold load: the data of the page being opened, asked for as soon as the store exists;
 * `early` is what index.html's inline script fetched for the page's stand-in, if anything. Also
 * before a navigation within the site, for the page at `pathname` whose link the visitor is
 * about to follow (intent-prefetch.ts). Kept for the cache's usual minute, for the page to take.
 */
export function prefetchOpening(store: AppStore, early?: unknown, pathname = location.pathname): void {
  const page = pageAt(pathname);
  if (page?.prefetch) prefetchPage(store, page, pathname, false, early);
}

/** The same on a navigation within the site, for as long as the page is shown. */
function usePrefetch(page: PageRoute) {
  const store = useAppStore();
  const { pathname } = useLocation();
  const email = useAppSelector(selectSessionUser)?.email;
  useEffect(() => prefetchPage(store, page, pathname), [store, page, pathname, email]);
}

function Guarded({ page, children }: { page: PageRoute; children: ReactNode }) {
  usePrefetch(page);
  return page.protected ? <RequireAuth>{children}</RequireAuth> : <>{children}</>;
}

/** A page that uses the store: the store, its early data request, and the guard when it is protected. */
export function StorePage({ page, children }: { page: PageRoute; children: ReactNode }) {
  return (
    <StoreProvider>
      <Guarded page={page}>{children}</Guarded>
    </StoreProvider>
  );
}
