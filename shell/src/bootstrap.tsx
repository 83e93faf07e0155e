import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import {
  loadConfig,
  makeStore,
  readStoredSession,
  SESSION_USER_KEY,
  setRemoteLoader,
  signedIn,
  signedOut,
  type AppStore,
} from '@motoparts/state';
import { App } from './app';
import { loadExposed, registerFromConfig } from './remotes';
import { capturePrerendered } from './prerendered';

interface SessionModule {
  restoreSession: (store: AppStore) => Promise<void>;
}

/**
 * Resolves who is signed in without loading Firebase when our stored token is still valid; an
 * expired token with a remembered user asks the auth remote (and so Firebase) to renew it.
 */
function resolveSession(store: AppStore): void {
  const stored = readStoredSession();
  if (stored) {
    store.dispatch(signedIn(stored));
  } else if (localStorage.getItem(SESSION_USER_KEY)) {
    loadExposed<SessionModule>('auth', 'session')
      .then((m) => m.restoreSession(store))
      .catch(() => store.dispatch(signedOut()));
  } else {
    store.dispatch(signedOut());
  }
}

async function main() {
  // Before React replaces index.html's static first screen (the shell's styles are in its <head>).
  capturePrerendered();
  const config = await loadConfig();
  registerFromConfig(config);
  // Remotes that embed another remote's module (home → login card) load it through the shell.
  setRemoteLoader(loadExposed);
  const store = makeStore();
  resolveSession(store);
  const container = document.getElementById('root');
  if (!container) throw new Error('#root missing from index.html');
  createRoot(container).render(
    <Provider store={store}>
      <App />
    </Provider>,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  const root = document.getElementById('root');
  if (root)
    root.textContent = 'MotoParts could not start: its configuration did not load. Please reload the page.';
});
