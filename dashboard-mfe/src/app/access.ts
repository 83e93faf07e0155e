/**
 * Who sees which dashboard page (docs/product.md). The menu and the route guard read the same table,
 * so a page can never be in one and missing from the other.
 */
export type Audience = 'everyone' | 'customers' | 'admins';

export interface DashboardPage {
  /** Path relative to /dashboard ('' is the index). */
  path: string;
  label: string;
  audience: Audience;
}

/** The side menu's title, above its items (also in the prerendered frame). */
export const MENU_TITLE = 'Dashboard';

export const DASHBOARD_PAGES = [
  { path: '', label: 'My Profile', audience: 'everyone' },
  { path: 'addReview', label: 'Add Review', audience: 'customers' },
  { path: 'myOrder', label: 'My Order', audience: 'customers' },
  { path: 'overview', label: 'Overview', audience: 'admins' },
  { path: 'manageOrder', label: 'Manage Order', audience: 'admins' },
  { path: 'allUser', label: 'All Users', audience: 'admins' },
  { path: 'manageProduct', label: 'Manage Products', audience: 'admins' },
  { path: 'addProduct', label: 'Add Product', audience: 'admins' },
  { path: 'reviews', label: 'Reviews', audience: 'admins' },
] as const satisfies readonly DashboardPage[];

export type DashboardPath = (typeof DASHBOARD_PAGES)[number]['path'];

export function canSee(audience: Audience, isAdmin: boolean): boolean {
  if (audience === 'everyone') return true;
  return audience === 'admins' ? isAdmin : !isAdmin;
}

/** The side menu for this role, in the order of docs/product.md. */
export function menuFor(isAdmin: boolean): DashboardPage[] {
  return DASHBOARD_PAGES.filter((page) => canSee(page.audience, isAdmin));
}

export function audienceOf(path: DashboardPath): Audience {
  const page = DASHBOARD_PAGES.find((p) => p.path === path);
  if (!page) throw new Error(`Unknown dashboard page: ${path}`);
  return page.audience;
}

/** What the "not allowed" screen says to someone outside a page's audience. */
export function refusalFor(audience: Audience): string {
  return audience === 'admins'
    ? 'This page is for admins only. Your account does not have admin rights.'
    : 'This page is for customers. Admin accounts do not place orders or post reviews.';
}
