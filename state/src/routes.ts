/**
 * One page a remote renders. Each remote keeps its own table (`src/app/routes.ts`, exported as
 * `@motoparts/<remote>/routes`); the shell builds its router from those tables, so a path and
 * its title are written once, by the team that owns the page.
 */
export interface RemoteRoute {
  /** A react-router path (`/purchase/:id`, `/dashboard/*`). */
  path: string;
  /** The page's name in the browser tab: "<title> - MotoParts". */
  title: string;
  /** The exposed module (the remote's webpack `exposes` key, without `./`) that renders it. */
  module: string;
  /** Only for signed-in visitors: others are sent to /login and brought back afterwards. */
  protected?: boolean;
  /**
   * Shared data the page shows first, which the shell requests as soon as the route matches,
   * while the page's code is still on its way: `part` names the path parameter holding a part id
   * (GET /parts/:id, and the part's photo); `profileAt` is the path at which the page shows the
   * signed-in account's own record (GET /user/:email); `reviews`, the site's reviews (GET
   * /review). The page reads it from the shared cache.
   */
  prefetch?: { part?: string; profileAt?: string; reviews?: boolean };
  /**
   * The page's module renders its first screen without the store, and asks for the store
   * (`requireStore`) for the rest: the shell then shows it before Redux has loaded. Every other
   * page renders once the store is there.
   */
  firstScreen?: boolean;
}
