import type * as routesModule from './routes';
import type * as DashboardAppModule from './dashboard-app';

/**
 * The modules this remote exposes (the `exposes` of its webpack.config.js), as types only: the
 * shell's typecheck holds each to what the shell expects of it (shell/src/remotes/exposed.ts) and
 * types its loads. Nothing here is bundled; a module added to `exposes` is added here too.
 */
export interface Exposed {
  routes: typeof routesModule;
  DashboardApp: typeof DashboardAppModule;
}
