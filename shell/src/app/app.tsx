import { lazy, Suspense, useLayoutEffect, type ReactNode } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { RemoteBoundary, requireStore, ScrollRestoration } from '@motoparts/state/frame';
import { Footer } from '../components/footer';
import { TopBar } from '../components/top-bar';
import { PrerenderedView, prerenderedHtml } from '../first-screen/prerendered';
import { RemoteView, Unavailable } from '../remotes/remote-view';
import { usePages } from './page-table';
import { pageTitle, type PageRoute } from './routes';

/** What a page shows while its code loads, when it has no prerendered stand-in. */
const loading = <p className="page-loading">Loading...</p>;

/**
 * The route's name in the tab. A layout effect: it runs before the page's own effects, so a page
 * that names itself more precisely (a part's page, with the part's name) has the last word.
 */
function Titled({ title, children }: { title: string; children: ReactNode }) {
  useLayoutEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  return <>{children}</>;
}

/** The store's half of a page (its guard and early data request), once the store is there. */
const StorePage = lazy(async () => {
  const [{ StorePage: page }] = await Promise.all([import('./store'), requireStore()]);
  return { default: page };
});

function Page({ page }: { page: PageRoute }) {
  const view = <RemoteView remote={page.remote} module={page.module} />;
  if (page.firstScreen) return <Titled title={page.title}>{view}</Titled>;
  // Without the store the page cannot show: say so as for its remote. Code that failed to arrive
  // stays failed in the page's module cache, so Retry loads the page again. While the store's half
  // loads, the page's prerendered stand-in stays (as while its code loads), so nothing moves.
  const prerendered = prerenderedHtml(`${page.remote}/${page.module}`);
  return (
    <Titled title={page.title}>
      <RemoteBoundary
        name="store"
        fallback={(retry) => <Unavailable remote={page.remote} retry={retry} />}
        onRetry={() => location.reload()}
      >
        <Suspense fallback={prerendered ? <PrerenderedView html={prerendered} /> : loading}>
          <StorePage page={page}>{view}</StorePage>
        </Suspense>
      </RemoteBoundary>
    </Titled>
  );
}

/** A path the shell's tables do not route: Not Found, unless a remote publishes it now. */
const Unrouted = lazy(() => import('./unrouted'));

export function App() {
  const pages = usePages();
  return (
    <BrowserRouter>
      <TopBar />
      <main id="main" className="site-main">
        <Routes>
          {pages.map((page) => (
            <Route key={page.remote + page.path} path={page.path} element={<Page page={page} />} />
          ))}
          <Route
            path="*"
            element={
              <Suspense fallback={loading}>
                <Unrouted />
              </Suspense>
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
