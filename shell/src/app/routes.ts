import { routes as authRoutes } from '@motoparts/auth-mfe/routes';
import { routes as dashboardRoutes } from '@motoparts/dashboard-mfe/routes';
import type { RemoteRoute } from '@motoparts/state';
import { routes as storefrontRoutes } from '@motoparts/storefront-mfe/routes';
import type { RemoteName } from '../remotes/registry';

/** One page of the site: a remote's route with the remote that renders it. */
export interface PageRoute extends RemoteRoute {
  remote: RemoteName;
}

/** Each remote's own route table (paths and titles are written once, by the team that owns the page). */
const TABLES: Record<RemoteName, RemoteRoute[]> = {
  storefront: storefrontRoutes,
  auth: authRoutes,
  dashboard: dashboardRoutes,
};

/** Every page of the site: path, which remote renders it, whether it needs a signed-in user. */
export const PAGES: PageRoute[] = (Object.keys(TABLES) as RemoteName[]).flatMap((remote) =>
  TABLES[remote].map((route) => ({ ...route, remote })),
);

export const SITE_NAME = 'MotoParts';
export const pageTitle = (title: string) => `${title} - ${SITE_NAME}`;
