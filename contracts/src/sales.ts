import { z } from './zod';

// ---------- the admins' Overview (GET /sales) ----------

/** The longest window the Overview asks for: a year, leap day included. */
export const MAX_SALES_DAYS = 366;
/** The windows the Overview page switches between. */
export const SALES_WINDOWS = [30, 90] as const;
/** How many parts `topParts` lists, and how many `lowStock` lists at most (worst first). */
export const TOP_PARTS = 10;
export const MAX_LOW_STOCK = 50;
/** Parts listed in `held` (most pieces first), and unpaid orders listed under each (its `pieces` counts them all). */
export const MAX_HELD_PARTS = 50;
export const MAX_HELD_ORDERS = 20;

const DAYS_MESSAGE = `days must be a whole number from 1 to ${MAX_SALES_DAYS}`;

/** GET /sales?days=N */
export const salesQuerySchema = z.object({
  days: z.coerce
    .number({ error: DAYS_MESSAGE })
    .int({ error: DAYS_MESSAGE })
    .min(1, { error: DAYS_MESSAGE })
    .max(MAX_SALES_DAYS, { error: DAYS_MESSAGE })
    .default(30),
});
export type SalesQuery = z.infer<typeof salesQuerySchema>;

/**
 * Orders by where they stand: `unpaid` (placed, not paid yet), then the order statuses of paid
 * orders (`pending` = paid, not shipped yet) and `expired` (never paid).
 */
export const SALES_STATES = [
  'unpaid',
  'pending',
  'shipped',
  'delivered',
  'refunded',
  'disputed',
  'expired',
] as const;
export type SalesState = (typeof SALES_STATES)[number];

export const salesSchema = z.object({
  days: z.number().int(),
  /** The shop's time zone (SHOP_TIME_ZONE), in which days begin and end. */
  timeZone: z.string(),
  /** Every day of the window, oldest first, zero days included: money paid that day less its refunds (dollars). */
  revenueByDay: z.array(z.object({ date: z.string(), revenue: z.number() })),
  /** The window's revenue (dollars, the sum of `revenueByDay`). */
  revenue: z.number(),
  /** Orders placed in the window, by where they stand now. */
  ordersByStatus: z.record(z.enum(SALES_STATES), z.number().int()),
  /** The parts with the most revenue in the window, most first. */
  topParts: z.array(
    z.object({ partId: z.string(), name: z.string(), qty: z.number().int(), revenue: z.number() }),
  ),
  /** Sold-out parts, then running-low ones, fewest minimum orders left first. */
  lowStock: z.array(
    z.object({
      partId: z.string(),
      name: z.string(),
      availableQty: z.number().int(),
      minQty: z.number().int(),
      level: z.enum(['soldOut', 'low']),
    }),
  ),
  /** How many parts are sold out or running low (lowStock lists the worst of them). */
  lowStockCount: z.number().int(),
  /** Pieces held by unpaid orders, per part, most first (the first 50), with those orders (oldest first). */
  held: z.array(
    z.object({
      partId: z.string(),
      name: z.string(),
      pieces: z.number().int(),
      orderCount: z.number().int(),
      orders: z.array(
        z.object({
          orderId: z.string(),
          qty: z.number().int(),
          user: z.string(),
          placedAt: z.string(),
          /** The checkout it is a line of: releasing it releases the whole checkout. */
          checkoutId: z.string().optional(),
        }),
      ),
    }),
  ),
  /** How many parts unpaid orders hold pieces of (held lists the first of them). */
  heldCount: z.number().int(),
});
export type Sales = z.infer<typeof salesSchema>;
