import type { RemoteRoute } from '@motoparts/state';

/**
 * The dashboard is one page to the shell: everything under /dashboard, signed in only. Its own
 * menu routes (My Order, Manage Products…) live inside DashboardApp.
 */
export const routes: RemoteRoute[] = [
  {
    path: '/dashboard/*',
    title: 'Dashboard',
    module: 'DashboardApp',
    protected: true,
    prefetch: { profileAt: '/dashboard' },
  },
];
