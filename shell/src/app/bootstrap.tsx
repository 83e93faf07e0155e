import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { loadConfig, requireStore, setRemoteLoader, setStoreLoader } from '@motoparts/state/frame';
import { earlyFill } from '../first-screen/early-fill';
import { capturePrerendered } from '../first-screen/prerendered';
import { loadModule, loadSessionModule, registerFromConfig } from '../remotes/registry';
import { preloadView } from '../remotes/remote-view';
import { App } from './app';
import { prefetchOnIntent } from './intent-prefetch';
import { pageAt, refreshPages } from './page-table';

async function main() {
  const configured = loadConfig().then((config) => {
    registerFromConfig(config);
    // Remotes that embed another remote's module (home → login card) load it through the shell.
    setRemoteLoader(loadModule);
  });
  // The top bar reads the stored session from the first render (useSession); the store (Redux
  // Toolkit, RTK Query, the session listeners) comes when a page asks for it, or here before the
  // first render for every page but the home page. It is made once the remotes are registered:
  // its start-up may ask the auth remote to renew a remembered session.
  setStoreLoader(async () => {
    const [{ createStore, prefetchOpening }, , early] = await Promise.all([
      import('./store'),
      configured,
      earlyFill(),
    ]);
    const store = createStore(loadSessionModule);
    prefetchOpening(store, early);
    return store;
  });
  // The page being opened. Its first screen may render without the store (the home page); a
  // store that did not load is the page's to report (its Retry asks again), not a failed start.
  const opening = pageAt(location.pathname);
  const store = opening?.firstScreen ? null : requireStore().catch(() => undefined);
  // Its code comes in parallel with the store, not once the store is there.
  // A path the shell's own tables do not route may be a page released since: the remotes'
  // published tables are asked for at once.
  void configured.then(
    () => {
      if (opening) preloadView(opening.remote, opening.module);
      else void refreshPages();
    },
    () => undefined,
  );
  await Promise.all([configured, store]);
  // Just before React replaces index.html's static first screen (the shell's styles are in its
  // <head>): as late as this, so that a stand-in the inline script fills meanwhile is kept.
  capturePrerendered();
  const container = document.getElementById('root');
  if (!container) throw new Error('#root missing from index.html');
  const root = createRoot(container);
  // As a transition React renders in slices and lets the browser run between them, so the first
  // render is not one long task that a tap on the first screen would wait behind.
  startTransition(() => root.render(<App />));
  // A link the visitor is about to follow: its page's code, and the data its route declares once
  // the store is there (which every page but the home page needs before it renders).
  prefetchOnIntent((page, pathname) => {
    preloadView(page.remote, page.module);
    Promise.all([requireStore(), import('./store')])
      .then(([appStore, { prefetchOpening }]) => prefetchOpening(appStore, undefined, pathname))
      .catch(() => undefined); // the page reports a store or a request that failed
  });
}

main().catch((err: unknown) => {
  console.error(err);
  const root = document.getElementById('root');
  if (root)
    root.textContent = 'MotoParts could not start: its configuration did not load. Please reload the page.';
});
