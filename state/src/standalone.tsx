/**
 * Runs a remote on its own port for its team: the same store, config and session as in the
 * shell, with a minimal frame around the remote's pages. Not used when the shell hosts it.
 */
import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { BrowserRouter, Link } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { loadConfig } from './runtime-config';
import { ScrollRestoration } from './scroll-restoration';
import type { LoadSessionModule } from './session/contract';
import { restoreRequested } from './session/slice';
import { makeStore } from './store';
import { provideStore } from './store-ready';

/** The shell's shared stylesheet (design tokens, .btn, .card …), which the shell inlines. */
function linkSiteStyles(shellUrl: string | undefined): void {
  if (!shellUrl) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('site.css', shellUrl).toString();
  document.head.appendChild(link);
}

export interface StandaloneOptions {
  /**
   * The session's Firebase side (the auth remote passes its own `session` module). Other remotes
   * have no host to load it from: their pages run on the stored session, and signing out or a
   * refused token ends it locally.
   */
  loadSessionModule?: LoadSessionModule;
}

export async function mountStandalone(
  name: string,
  routes: ReactNode,
  { loadSessionModule }: StandaloneOptions = {},
): Promise<void> {
  const config = await loadConfig();
  linkSiteStyles(config.shellUrl);
  const store = makeStore({ loadSessionModule });
  store.dispatch(restoreRequested());
  provideStore(store);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root missing');
  createRoot(container).render(
    <Provider store={store}>
      <BrowserRouter>
        <header style={{ padding: '8px 16px', background: '#15171a', color: '#fff' }}>
          <Link to="/" style={{ color: '#fff' }}>
            MotoParts
          </Link>{' '}
          — {name} remote, standalone
        </header>
        <main id="main" className="site-main">
          {routes}
        </main>
        <ToastContainer position="top-right" autoClose={5000} />
        <ScrollRestoration />
      </BrowserRouter>
    </Provider>,
  );
}
