import { useEffect, type ReactNode } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { ScrollRestoration, selectAuthStatus, useAppSelector } from '@motoparts/state';
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

function Page({ page }: { page: PageRoute }) {
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
