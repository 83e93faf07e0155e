import { loadRemote, registerPlugins, registerRemotes } from '@module-federation/enhanced/runtime';
import type { SessionModule } from '@motoparts/state';
import type { RemoteName, RuntimeConfig } from '@motoparts/state/frame';
import { LOAD_FAILURE_KEY, type LoadFailureReporter } from '../first-screen/load-failure';
import type { RemoteModules } from './exposed';
import { versionGuard } from './version-guard';

export type { RemoteName };

/** The three remotes, their MF container names, and what users call them when one is down. */
export const REMOTES = {
  storefront: { scope: 'storefront', label: 'The shop' },
  auth: { scope: 'auth', label: 'Sign-in' },
  dashboard: { scope: 'dashboard', label: 'The dashboard' },
} as const satisfies Record<RemoteName, { scope: string; label: string }>;

let registered: RuntimeConfig | undefined;

function remoteInfo(config: RuntimeConfig, name: RemoteName) {
  return {
    name: REMOTES[name].scope,
    entry: new URL('remoteEntry.js', config.remotes[name].replace(/\/?$/, '/')).href,
  };
}

/** Registers the remotes from /config.json: no URL is baked into the build. */
export function registerFromConfig(config: RuntimeConfig): void {
  // Before the first remote loads: a remote the shell's shared copies cannot serve is refused.
  if (!registered) registerPlugins([versionGuard()]);
  registered = config;
  registerRemotes((Object.keys(REMOTES) as RemoteName[]).map((name) => remoteInfo(config, name)));
}

/** Forgets a remote's failed entry so the next load fetches remoteEntry.js again. */
export function reRegister(name: RemoteName): void {
  if (registered) registerRemotes([remoteInfo(registered, name)], { force: true });
}

/**
 * One exposed module by a name known only at runtime (a page a route table names, a module a
 * remote asks for through the kit's loader): the caller states what it expects.
 */
export async function loadModule<T>(remote: RemoteName, module: string): Promise<T> {
  const from = registered?.remotes[remote];
  const mod = await loadRemote<T>(`${REMOTES[remote].scope}/${module}`).catch((err: unknown) => {
    // Reported once per failed load (its callers share it until a Retry), by index.html's script.
    (window as unknown as Record<string, LoadFailureReporter | undefined>)[LOAD_FAILURE_KEY]?.(remote, err);
    // This browser's canary of the remote did not load: the stable release serves it from now on
    // (until a reload draws on the canary again), for this load and every later one.
    const stable = registered?.stableRemotes?.[remote];
    if (!registered || !stable || from === stable) throw err;
    if (registered.remotes[remote] !== stable) {
      registered = { ...registered, remotes: { ...registered.remotes, [remote]: stable } };
      reRegister(remote);
    }
    return loadModule<T>(remote, module);
  });
  if (!mod) throw new Error(`${remote}/${module} did not load`);
  return mod;
}

/** One exposed module by its name, typed as the remote's code declares it (exposed.ts). */
export const loadExposed = <R extends RemoteName, M extends keyof RemoteModules[R] & string>(
  remote: R,
  module: M,
): Promise<RemoteModules[R][M]> => loadModule<RemoteModules[R][M]>(remote, module);

/** The auth remote's session module (and Firebase with it), fetched only when the session needs it. */
export const loadSessionModule = (): Promise<SessionModule> => loadExposed('auth', 'session');
