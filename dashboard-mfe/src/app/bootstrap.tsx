import type { ComponentType, ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { getConfig, selectAuthStatus, useAppSelector } from '@motoparts/state';
import { mountStandalone } from '@motoparts/state/standalone';
import DashboardApp from './dashboard-app';
import { routes } from './routes';

/** The exposed modules by name (the `exposes` keys of webpack.config.js, which routes.ts names). */
const modules: Record<string, ComponentType> = { DashboardApp };

/** Where the shop's login page is: the shell owns it, the auth remote renders it. */
function loginUrl(): string {
  // `shellUrl` is optional in config.json; without it the login page is assumed on this origin.
  const { shellUrl } = getConfig() as { shellUrl?: string };
  return shellUrl ? new URL('/login', shellUrl).toString() : '/login';
}

/** Standalone stand-in for the shell's guard: the dashboard only makes sense signed in. */
function SignedInOnly({ children }: { children: ReactNode }) {
  const status = useAppSelector(selectAuthStatus);
  if (status === 'loading') return <p className="page-loading">Loading...</p>;
  if (status === 'signedOut') {
    return (
      <section className="page" aria-labelledby="signed-out-title">
        <h1 id="signed-out-title">Please sign in</h1>
        <p>The dashboard shows your profile and orders, so it needs you signed in.</p>
        <a className="btn" href={loginUrl()}>
          Go to the login page
        </a>
      </section>
    );
  }
  return <>{children}</>;
}

// Standalone mode for this team: the dashboard on :3003 without the shell, on the same paths as
// in the shell (routes.ts); any other path goes to the dashboard.
void mountStandalone(
  'dashboard',
  <Routes>
    {routes.map(({ path, module, protected: signedInOnly }) => {
      const Page = modules[module];
      if (!Page) throw new Error(`No dashboard module is exposed as "${module}"`);
      return (
        <Route
          key={path}
          path={path}
          element={
            signedInOnly ? (
              <SignedInOnly>
                <Page />
              </SignedInOnly>
            ) : (
              <Page />
            )
          }
        />
      );
    })}
    <Route path="*" element={<Navigate to="/dashboard" replace />} />
  </Routes>,
);
