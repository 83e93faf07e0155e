import { useEffect, type ReactNode } from 'react';
import { Navigate, useLocation, useParams } from 'react-router-dom';
import {
  assetUrl,
  catalogApi,
  makeStore,
  restoreRequested,
  selectAuthStatus,
  signOutRequested,
  StoreProvider,
  type AppStore,
  useAppDispatch,
  useAppSelector,
  type LoadSessionModule,
} from '@motoparts/state';
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
 * Starts the request for the data a page declares (RemoteRoute.prefetch) when its route matches,
 * in parallel with the remote's code, and fetches the part's photo as soon as the part is known:
 * on a cold load the page then renders with both already here instead of asking for them after
 * its chunk has arrived.
 */
function usePrefetch(page: PageRoute) {
  const params = useParams();
  const dispatch = useAppDispatch();
  const partId = page.prefetch ? params[page.prefetch.part] : undefined;
  useEffect(() => {
    if (!partId) return;
    const request = dispatch(catalogApi.endpoints.getPart.initiate(partId));
    request.unwrap().then(
      (part) => {
        new Image().src = assetUrl(part.img);
      },
      () => undefined, // the page shows the error when it asks
    );
    return () => request.unsubscribe();
  }, [dispatch, partId]);
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
