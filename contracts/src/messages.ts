/**
 * The exact user-facing texts of docs/product.md and the business constants, free of zod so
 * that light pages (the storefront's home page) can import them without pulling the schema
 * library into their first load. `index.ts` re-exports everything here.
 */

/** What an admin who tries to buy is told (docs/product.md). */
export const ADMIN_CANNOT_ORDER = 'As an admin You can not order any product.';
export const MIN_ORDER_QTY = 100;

/** The shop's own three departments ("Parts, tools and gear for every ride"). */
export const PART_CATEGORIES = ['parts', 'tools', 'gear'] as const;
export type PartCategory = (typeof PART_CATEGORIES)[number];
/** What a part created before categories existed, or without one, belongs to. */
export const DEFAULT_PART_CATEGORY: PartCategory = 'parts';
export const CATEGORY_LABELS: Record<PartCategory, string> = { parts: 'Parts', tools: 'Tools', gear: 'Gear' };

/** List orders of GET /parts; `newest` = most recently added first. */
export const PART_SORTS = ['name', '-name', 'price', '-price', 'newest'] as const;
export type PartSort = (typeof PART_SORTS)[number];

/**
 * The price bands of GET /parts (`?price=`, and the `price` counts of its facets): a part is in a
 * band when `min ≤ price < max` in whole dollars (no `max`: no upper bound).
 */
export const PRICE_BANDS = [
  { id: 'under-25', min: 0, max: 25, label: 'Under $25' },
  { id: '25-100', min: 25, max: 100, label: '$25 to $100' },
  { id: '100-250', min: 100, max: 250, label: '$100 to $250' },
  { id: '250-up', min: 250, label: '$250 and up' },
] as const;
export type PriceBand = (typeof PRICE_BANDS)[number]['id'];
export const PRICE_BAND_IDS = PRICE_BANDS.map((b) => b.id) as [PriceBand, ...PriceBand[]];

/** The band of a price in dollars. */
export function priceBandOf(price: number): PriceBand {
  let band: PriceBand = PRICE_BANDS[0].id;
  for (const b of PRICE_BANDS) if (price >= b.min) band = b.id;
  return band;
}

/**
 * GET /parts?facets=true's `X-Facets` header: how many parts of the current search fall in each
 * choice of each filter, counted with the other filters applied and this one not (so each count
 * is what choosing it would list).
 */
export interface PartFacets {
  category: Record<PartCategory, number>;
  inStock: { true: number; false: number };
  price: Record<PriceBand, number>;
}

/** A part is in stock while at least its minimum order is available, i.e. it can be bought. */
export const isInStock = (part: { qty: number; availableQty: number }): boolean =>
  part.availableQty >= part.qty;
/** Below this many minimum orders' worth of stock a card says "Low stock". */
export const LOW_STOCK_ORDERS = 3;
export const isLowStock = (part: { qty: number; availableQty: number }): boolean =>
  isInStock(part) && part.availableQty < part.qty * LOW_STOCK_ORDERS;

/**
 * The sign-in email rule (docs/product.md) started as letters or digits, @, letters, a dot and 2
 * to 3 letters. The top-level domain is widened to 4 letters so the demo accounts
 * (`@motoparts.test`) can sign in, and dots, dashes, underscores and plus signs are allowed in the
 * local part (real addresses use them).
 */
export const UI_EMAIL_PATTERN = /^[A-Za-z0-9._+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,4}$/;

export const MESSAGES = {
  emailRequired: 'email required',
  emailInvalid: 'Please enter a valid email',
  passwordRequired: 'password required',
  passwordShort: 'password must contain at last six characters',
  nameRequired: 'name required',
  minimumQty: 'Minimum purchase quantity is 100',
  stockReached: 'You have reach our available stocks',
  adminCannotOrder: ADMIN_CANNOT_ORDER,
  confirmDelete: 'Are you sure, you want to delete this product',
  profileUpdated: 'Profile update successfully',
  productAdded: 'Product added successfully',
  madeAdmin: 'Successfully made an admin',
  makeAdminFailed: 'Failed to Make an admin',
  paymentDone: 'Congrats! Your payment is completed.',
} as const;
