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
