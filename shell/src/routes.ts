import type { RemoteName } from './remotes';

/** Every page of the site: path, which remote renders it, whether it needs a signed-in user. */
export interface PageRoute {
  path: string;
  title: string;
  remote: RemoteName;
  module: string;
  protected?: boolean;
}

export const PAGES: PageRoute[] = [
  { path: '/', title: 'Home', remote: 'storefront', module: 'HomePage' },
  { path: '/home', title: 'Home', remote: 'storefront', module: 'HomePage' },
  { path: '/purchase', title: 'Home', remote: 'storefront', module: 'HomePage' },
  { path: '/parts', title: 'Parts', remote: 'storefront', module: 'CataloguePage' },
  { path: '/blogs', title: 'Blogs', remote: 'storefront', module: 'BlogsPage' },
  { path: '/reviews', title: 'Reviews', remote: 'storefront', module: 'ReviewsPage' },
  { path: '/myPortfolio', title: 'My Portfolio', remote: 'storefront', module: 'PortfolioPage' },
  { path: '/purchase/:id', title: 'Purchase', remote: 'storefront', module: 'PurchasePage', protected: true },
  { path: '/login', title: 'Login', remote: 'auth', module: 'LoginPage' },
  { path: '/signup', title: 'Sign Up', remote: 'auth', module: 'SignupPage' },
  { path: '/dashboard/*', title: 'Dashboard', remote: 'dashboard', module: 'DashboardApp', protected: true },
];

export const SITE_NAME = 'MotoParts';
export const pageTitle = (title: string) => `${title} - ${SITE_NAME}`;
