import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { RemoteBoundary } from '@motoparts/state/frame';
import { PrerenderedView, prerenderedHtml } from '../first-screen/prerendered';
import { loadExposed, REMOTES, reRegister, type RemoteName } from './registry';

/**
 * A lazy component from a remote. Each retry makes a fresh lazy() so a remote that failed
 * (server down, script error) is fetched again instead of replaying the cached failure.
 */
function makeLazy(remote: RemoteName, module: string) {
  return lazy(async () => {
    const mod = await loadExposed<{ default: ComponentType }>(remote, module);
    return { default: mod.default };
  });
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
