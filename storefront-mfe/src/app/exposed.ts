import type * as routesModule from './routes';
import type * as HomePageModule from '../features/home/pages/home-page';
import type * as ReviewsPageModule from '../features/reviews/pages/reviews-page';
import type * as BlogsPageModule from '../features/blogs/pages/blogs-page';
import type * as PortfolioPageModule from '../features/portfolio/pages/portfolio-page';
import type * as PurchasePageModule from '../features/purchase/pages/purchase-page';
import type * as CataloguePageModule from '../features/catalogue/pages/catalogue-page';
import type * as PartPageModule from '../features/part/pages/part-page';
import type * as CartPageModule from '../features/cart/pages/cart-page';

/**
 * The modules this remote exposes (the `exposes` of its webpack.config.js), as types only: the
 * shell's typecheck holds each to what the shell expects of it (shell/src/remotes/exposed.ts) and
 * types its loads. Nothing here is bundled; a module added to `exposes` is added here too.
 */
export interface Exposed {
  routes: typeof routesModule;
  HomePage: typeof HomePageModule;
  ReviewsPage: typeof ReviewsPageModule;
  BlogsPage: typeof BlogsPageModule;
  PortfolioPage: typeof PortfolioPageModule;
  PurchasePage: typeof PurchasePageModule;
  CataloguePage: typeof CataloguePageModule;
  PartPage: typeof PartPageModule;
  CartPage: typeof CartPageModule;
}
