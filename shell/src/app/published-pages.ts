import type { RemoteRoute } from '@motoparts/state/frame';
import { loadExposed, REMOTES, type RemoteName } from '../remotes/registry';
import { PAGES, type PageRoute } from './routes';

// Loaded only when a path matches none of the shell's own tables (page-table.ts): no cold load of
// a known page carries it.

/** The entries of a published table the shell can route: anything else is left out. */
function routable(table: unknown): RemoteRoute[] {
  if (!Array.isArray(table)) return [];
  return table.filter(
    (route): route is RemoteRoute =>
      typeof route === 'object' &&
      route !== null &&
      typeof (route as RemoteRoute).path === 'string' &&
      (route as RemoteRoute).path.startsWith('/') &&
      typeof (route as RemoteRoute).title === 'string' &&
      typeof (route as RemoteRoute).module === 'string',
  );
}

/**
 * Every remote's published table merged over the build's, in the order of the build's tables.
 * `load` fetches one remote's table; a remote whose table fails, or is empty, keeps the build's
 * entries.
 */
export async function publishedPages(
  load: (remote: RemoteName) => Promise<unknown> = async (remote) =>
    // Typed as this checkout's remotes declare it; checked all the same, as a deployed remote's
    // table may be of another release.
    (await loadExposed(remote, 'routes')).routes as unknown,
  known: PageRoute[] = PAGES,
): Promise<PageRoute[]> {
  const remotes = Object.keys(REMOTES) as RemoteName[];
  const tables = await Promise.all(
    remotes.map(async (remote) => {
      try {
        const table = routable(await load(remote));
        if (table.length > 0) return table.map((route) => ({ ...route, remote }));
      } catch (err) {
        console.warn(
          `[routes] ${remote}: its route table did not load, keeping the one the shell was built with`,
          err,
        );
      }
      return known.filter((page) => page.remote === remote);
    }),
  );
  return tables.flat();
}
