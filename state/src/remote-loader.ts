import type { RemoteName } from './runtime-config';

/**
 * Lets one remote show another remote's exposed module (the storefront's home page shows the
 * auth remote's login card) without importing its source or bundling a second federation
 * runtime: the host registers how it loads remotes, and remotes ask through this shared kit.
 */
export type RemoteModuleLoader = <T>(remote: RemoteName, module: string) => Promise<T>;

let loader: RemoteModuleLoader | undefined;

export function setRemoteLoader(next: RemoteModuleLoader): void {
  loader = next;
}

/** Rejects when no host registered a loader (a remote running standalone). */
export function loadRemoteModule<T>(remote: RemoteName, module: string): Promise<T> {
  if (!loader) return Promise.reject(new Error(`No host loads remote modules here (${remote}/${module})`));
  return loader<T>(remote, module);
}
