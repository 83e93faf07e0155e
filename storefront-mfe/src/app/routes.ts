import type { RemoteRoute } from '@motoparts/state/frame';

/** The storefront's pages; `module` names its exposed module. The shell builds its router from this. */
export const routes: RemoteRoute[] = [
  { path: '/', title: 'Home', module: 'HomePage', firstScreen: true },
  { path: '/home', title: 'Home', module: 'HomePage', firstScreen: true },
  { path: '/purchase', title: 'Home', module: 'HomePage', firstScreen: true },
  { path: '/parts', title: 'Parts', module: 'CataloguePage' },
  // A part's public page: search engines and shared links lead here (its head is served per part).
  { path: '/parts/:id', title: 'Part', module: 'PartPage', prefetch: { part: 'id' } },
  { path: '/blogs', title: 'Blogs', module: 'BlogsPage' },
  { path: '/reviews', title: 'Reviews', module: 'ReviewsPage', prefetch: { reviews: true } },
  { path: '/myPortfolio', title: 'My Portfolio', module: 'PortfolioPage' },
  {
    path: '/purchase/:id',
    title: 'Purchase',
    module: 'PurchasePage',
    protected: true,
    prefetch: { part: 'id' },
  },
  // The profile holds the last delivery address and phone, which the cart's form starts with.
  { path: '/cart', title: 'Cart', module: 'CartPage', protected: true, prefetch: { profileAt: '/cart' } },
];
