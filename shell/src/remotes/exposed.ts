import type { ComponentType } from 'react';
import type { Exposed as AuthExposed } from '@motoparts/auth-mfe/exposed';
import type { Exposed as DashboardExposed } from '@motoparts/dashboard-mfe/exposed';
import type { Exposed as StorefrontExposed } from '@motoparts/storefront-mfe/exposed';
import type { RemoteRoute, SessionModule } from '@motoparts/state';

// Types only: what each remote's exposed modules are (each remote states them in its
// src/app/exposed.ts), and what the shell expects of them. Nothing here is bundled.

/** A page: the default export renders with no props (the router gives it none). */
type PageModule = { default: ComponentType };
/** A remote's route table, read at runtime (published-pages.ts). */
type RoutesModule = { routes: RemoteRoute[] };

/** What the shell, and a remote embedding another's module, rely on in each exposed module. */
interface Expected {
  storefront: Record<
    | 'HomePage'
    | 'CataloguePage'
    | 'CartPage'
    | 'PurchasePage'
    | 'ReviewsPage'
    | 'BlogsPage'
    | 'PortfolioPage',
    PageModule
  > & { routes: RoutesModule };
  auth: Record<'LoginPage' | 'SignupPage' | 'LoginCard', PageModule> & {
    routes: RoutesModule;
    session: SessionModule;
  };
  dashboard: { DashboardApp: PageModule; routes: RoutesModule };
}

/** `npm run typecheck` fails here, naming the remote and module, when one no longer meets them. */
type Meeting<T extends Expected> = T;

/** Each remote's exposed modules by name, as that remote's code gives them. */
export type RemoteModules = Meeting<{
  storefront: StorefrontExposed;
  auth: AuthExposed;
  dashboard: DashboardExposed;
}>;
