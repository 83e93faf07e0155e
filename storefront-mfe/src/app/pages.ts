import type { ComponentType } from 'react';
import BlogsPage from '../features/blogs/pages/blogs-page';
import CartPage from '../features/cart/pages/cart-page';
import CataloguePage from '../features/catalogue/pages/catalogue-page';
import HomePage from '../features/home/pages/home-page';
import PartPage from '../features/part/pages/part-page';
import PortfolioPage from '../features/portfolio/pages/portfolio-page';
import PurchasePage from '../features/purchase/pages/purchase-page';
import ReviewsPage from '../features/reviews/pages/reviews-page';

/**
 * The exposed page modules by name (the `exposes` keys of webpack.config.js, which `routes.ts`
 * names), so the standalone router can render a route without the shell's remote loader.
 */
export const pages: Record<string, ComponentType> = {
  HomePage,
  CataloguePage,
  PartPage,
  BlogsPage,
  ReviewsPage,
  PortfolioPage,
  PurchasePage,
  CartPage,
};

/** The page that renders `module`; a route naming a module that is not here is a mistake in routes.ts. */
export function pageFor(module: string): ComponentType {
  const page = pages[module];
  if (!page) throw new Error(`No storefront page is exposed as "${module}"`);
  return page;
}
