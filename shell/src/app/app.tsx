import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation, useParams } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import {
  assetUrl,
  catalogApi,
  ScrollRestoration,
  selectAuthStatus,
  useAppDispatch,
  useAppSelector,
} from '@motoparts/state';
import { Footer } from '../components/footer';
import { NotFound } from '../components/not-found';
import { TopBar } from '../components/top-bar';
import { RemoteView } from '../remotes/remote-view';
import { PAGES, pageTitle, type PageRoute } from './routes';

function Titled({ title, children }: { title: string; children: ReactNode }) {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  return <>{children}</>;
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

function Page({ page }: { page: PageRoute }) {
  usePrefetch(page);
  const view = <RemoteView remote={page.remote} module={page.module} />;
  return <Titled title={page.title}>{page.protected ? <RequireAuth>{view}</RequireAuth> : view}</Titled>;
}

export function App() {
  return (
    <BrowserRouter>
      <TopBar />
      <main id="main" className="site-main">
        <Routes>
          {PAGES.map((page) => (
            <Route key={page.path} path={page.path} element={<Page page={page} />} />
          ))}
          <Route
            path="*"
            element={
              <Titled title="Not Found">
                <NotFound />
              </Titled>
            }
          />
        </Routes>
      </main>
      <Footer />
      <ToastContainer position="top-right" autoClose={5000} />
      {/* A new page opens at its top; Back and Forward return to where the reader was. */}
      <ScrollRestoration />
    </BrowserRouter>
  );
}
