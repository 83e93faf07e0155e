import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { Component, lazy, Suspense, useState, type ComponentType, type ReactNode } from 'react';
import type { RuntimeConfig } from '@motoparts/state';
import { PrerenderedView, prerenderedHtml } from './prerendered';

/** The three remotes, their MF container names, and what users call them when one is down. */
export const REMOTES = {
  storefront: { scope: 'storefront', label: 'The shop' },
  auth: { scope: 'auth', label: 'Sign-in' },
  dashboard: { scope: 'dashboard', label: 'The dashboard' },
} as const;
export type RemoteName = keyof typeof REMOTES;

let registered: RuntimeConfig | undefined;

function remoteInfo(config: RuntimeConfig, name: RemoteName) {
  return {
    name: REMOTES[name].scope,
    entry: new URL('remoteEntry.js', config.remotes[name].replace(/\/?$/, '/')).toString(),
  };
}

/** Registers the remotes from /config.json: no URL is baked into the build. */
export function registerFromConfig(config: RuntimeConfig): void {
  registered = config;
  registerRemotes((Object.keys(REMOTES) as RemoteName[]).map((name) => remoteInfo(config, name)));
}

/** Forgets a remote's failed entry so the next load fetches remoteEntry.js again. */
function reRegister(name: RemoteName): void {
  if (registered) registerRemotes([remoteInfo(registered, name)], { force: true });
}

export async function loadExposed<T>(remote: RemoteName, module: string): Promise<T> {
  const mod = await loadRemote<T>(`${REMOTES[remote].scope}/${module}`);
  if (!mod) throw new Error(`${remote}/${module} did not load`);
  return mod;
}

/**
 * A lazy component from a remote. Each call to `retry` makes a fresh lazy() so a remote that
 * failed (server down, script error) is fetched again instead of replaying the cached failure.
 */
function makeLazy(remote: RemoteName, module: string) {
  return lazy(async () => {
    const mod = await loadExposed<{ default: ComponentType }>(remote, module);
    return { default: mod.default };
  });
}

interface BoundaryProps {
  remote: RemoteName;
  onRetry: () => void;
  children: ReactNode;
}

class RemoteErrorBoundary extends Component<BoundaryProps, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.error(`[shell] ${this.props.remote} remote failed:`, error);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="remote-unavailable" role="alert">
        <p>
          <strong>{REMOTES[this.props.remote].label} is unavailable right now.</strong> The rest of the site
          still works.
        </p>
        <button
          type="button"
          className="btn"
          onClick={() => {
            this.setState({ error: null });
            this.props.onRetry();
          }}
        >
          Retry
        </button>
      </div>
    );
  }
}

const cache = new Map<string, ReturnType<typeof makeLazy>>();

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
    <RemoteErrorBoundary
      remote={remote}
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
      </Suspense>
    </RemoteErrorBoundary>
  );
}
