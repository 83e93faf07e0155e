import type { ComponentType } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { mountStandalone } from '@motoparts/state/standalone';
import LoginPage from '../features/sign-in/pages/login-page';
import SignupPage from '../features/sign-in/pages/signup-page';
import { routes } from './routes';

/** The component behind each exposed page module that routes.ts names. */
const PAGES: Record<string, ComponentType | undefined> = { LoginPage, SignupPage };

function pageFor(module: string) {
  const Page = PAGES[module];
  if (!Page) throw new Error(`auth: routes.ts names ${module}, which this remote does not have`);
  return <Page />;
}

// Standalone mode for this team: the sign-in pages on :3002 without the shell, with the same
// session module the shell loads from this remote (so an expired token is renewed here too).
void mountStandalone(
  'auth',
  <Routes>
    {routes.map((route) => (
      <Route key={route.path} path={route.path} element={pageFor(route.module)} />
    ))}
    <Route path="*" element={<Navigate to="/login" replace />} />
  </Routes>,
  { loadSessionModule: () => import('../features/session') },
);
