import { createRoot } from 'react-dom/client';
import { Provider } from 'react-redux';
import { loadConfig, makeStore, restoreRequested, setRemoteLoader } from '@motoparts/state';
import { capturePrerendered } from '../first-screen/prerendered';
import { loadExposed, loadSessionModule, registerFromConfig } from '../remotes/registry';
import { App } from './app';

async function main() {
  // Before React replaces index.html's static first screen (the shell's styles are in its <head>).
  capturePrerendered();
  const config = await loadConfig();
  registerFromConfig(config);
  // Remotes that embed another remote's module (home → login card) load it through the shell.
  setRemoteLoader(loadExposed);
  const store = makeStore({ loadSessionModule });
  // Within this dispatch a valid stored session is already signed in: the first render paints
  // the signed-in top bar without loading the auth remote or Firebase.
  store.dispatch(restoreRequested());
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
