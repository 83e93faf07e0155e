import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { RemoteBoundary } from '@motoparts/state/frame';
import { PrerenderedView, prerenderedHtml } from '../first-screen/prerendered';
import { loadModule, REMOTES, reRegister, type RemoteName } from './registry';

type ViewModule = { default: ComponentType };

/** Each exposed module's load, started by the first of preloadView and the view's lazy(). */
const loads = new Map<string, Promise<ViewModule>>();

function loadView(remote: RemoteName, module: string): Promise<ViewModule> {
  const key = `${remote}/${module}`;
  let load = loads.get(key);
  if (!load) {
    load = loadModule<ViewModule>(remote, module).then((mod) => ({ default: mod.default }));
    loads.set(key, load);
  }
  return load;
}

/**
 * Starts fetching a page's code before the page renders (on a cold load, while the store is
 * still loading), so it arrives in parallel with the store rather than after it. A failure is
 * left for the view to show.
 */
export function preloadView(remote: RemoteName, module: string): void {
  loadView(remote, module).catch(() => undefined);
}

/**
 * A lazy component from a remote. Each retry makes a fresh lazy() and load so a remote that
 * failed (server down, script error) is fetched again instead of replaying the cached failure.
 */
function makeLazy(remote: RemoteName, module: string) {
  return lazy(() => loadView(remote, module));
}

const cache = new Map<string, ReturnType<typeof makeLazy>>();

/**
 * Marks (performance.mark) each time a remote's page has rendered in place of its loading state:
 * on a cold load, the moment its first screen is the page's own and answers input. The budgets
 * test (e2e/tests/platform-budgets.spec.ts) splits what loads before it from what a page defers.
 */
const PAGE_RENDERED_MARK = 'motoparts:page-rendered';

function Rendered() {
  useEffect(() => {
    performance.mark(PAGE_RENDERED_MARK);
  }, []);
  return null;
}

export function Unavailable({ remote, retry }: { remote: RemoteName; retry: () => void }) {
  return (
    <div className="remote-unavailable" role="alert">
      <p>
        <strong>{REMOTES[remote].label} is unavailable right now.</strong> The rest of the site still works.
      </p>
      <button type="button" className="btn" onClick={retry}>
        Retry
      </button>
    </div>
  );
}

/** Renders one exposed module of a remote inside its own error boundary and Suspense. */
export function RemoteView({ remote, module }: { remote: RemoteName; module: string }) {
  const key = `${remote}/${module}`;
  const [, setAttempt] = useState(0);
  let View = cache.get(key);
  if (!View) {
    View = makeLazy(remote, module);
    cache.set(key, View);
  }
  const prerendered = prerenderedHtml(key);
  return (
    <RemoteBoundary
      name={remote}
      fallback={(retry) => <Unavailable remote={remote} retry={retry} />}
      onRetry={() => {
        cache.delete(key);
        loads.delete(key);
        reRegister(remote);
        setAttempt((n) => n + 1);
      }}
    >
      <Suspense
        fallback={
          prerendered ? <PrerenderedView html={prerendered} /> : <p className="page-loading">Loading...</p>
        }
      >
        <View />
        <Rendered />
      </Suspense>
    </RemoteBoundary>
  );
}
