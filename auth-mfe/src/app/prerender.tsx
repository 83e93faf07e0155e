import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '@motoparts/state';
import LoginPage from '../features/sign-in/pages/login-page';
import SignupPage from '../features/sign-in/pages/signup-page';
import { AUTH_STYLES_ID } from '../styles';
import authCss from '../styles/auth.css';

/** Where the shell's server mounts this build's prerender/ folder (see the shell's FRAGMENT_URLS). */
const SHELL_MOUNT = '/_fragments/auth/prerender/';

/**
 * One page as a signed-out visitor first sees it, rendered by the page itself (its own store,
 * empty, and router), then marked as the shell's stand-in for it. It is `inert`: a picture of the
 * page until the page replaces it, whose buttons would do nothing and whose typed text would be
 * lost.
 */
function standIn(module: string, path: string, Page: () => ReactNode): string {
  const html = renderToStaticMarkup(
    <Provider store={makeStore()}>
      <MemoryRouter initialEntries={[path]}>
        <Page />
      </MemoryRouter>
    </Provider>,
  );
  const open = '<div class="auth-page">';
  if (!html.startsWith(open)) {
    throw new Error(`${module} no longer renders ${open} first: update src/app/prerender.tsx`);
  }
  return html.replace(
    open,
    `<div class="auth-page" data-prerendered="${module}" data-needs="styles" data-signed-out inert ` +
      `data-styles="${AUTH_STYLES_ID}" data-styles-href="${SHELL_MOUNT}first-screen.css">`,
  );
}

/**
 * Build time (Node): the sign-in pages' first screens, emitted as dist/prerender/auth.html with
 * their stylesheet, for the shell's server to include in index.html: heading, intro and the form,
 * the same markup the pages render, so nothing moves when they take over. Each shows only on its
 * own route. `data-needs="styles"` keeps it hidden until the shell's inline script has linked its
 * stylesheet (`data-styles-href`, under the id the remote's own style injection looks for) and
 * seen it loaded: no other page fetches it, and none waits for it before its first paint.
 * `data-signed-out`: not for a visitor with a stored session, whom the page sends on at once.
 */
export default function prerender(): Record<'auth.html' | 'first-screen.css', string> {
  return {
    'auth.html':
      standIn('auth/LoginPage', '/login', LoginPage) + standIn('auth/SignupPage', '/signup', SignupPage),
    'first-screen.css': authCss,
  };
}
