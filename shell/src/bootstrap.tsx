import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import {
  loadConfig,
  makeStore,
  readStoredSession,
  readTokenClaims,
  renewSessionOnce,
  SESSION_USER_KEY,
  setSessionRenewer,
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
  renewSession: (store: AppStore) => Promise<string | null>;
}

/** Renew this long before our API token expires (tokens live 15 minutes). */
const RENEW_AHEAD_MS = 2 * 60 * 1000;

/**
 * Keeps the API token fresh while the page is open: a minute or two before it expires the auth
 * remote trades the Firebase session for a new one (loading Firebase only then). The API answers
 * an expired token 401, which also triggers a renewal (base-api), e.g. after a laptop slept.
 */
function keepSessionFresh(store: AppStore): void {
  setSessionRenewer(() => loadExposed<SessionModule>('auth', 'session').then((m) => m.renewSession(store)));
  let timer: ReturnType<typeof setTimeout> | undefined;
  let scheduledFor: string | null = null;
  store.subscribe(() => {
    const token = store.getState().auth.token;
    if (token === scheduledFor) return;
    scheduledFor = token;
    clearTimeout(timer);
    const exp = token ? readTokenClaims(token)?.exp : undefined;
    if (!exp) return;
    const lifetimeMs = exp * 1000 - Date.now();
    const delay = Math.max(0, lifetimeMs - Math.min(RENEW_AHEAD_MS, lifetimeMs / 2));
    timer = setTimeout(() => void renewSessionOnce(), delay);
  });
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
  keepSessionFresh(store);
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
