/**
 * The API's caches share one memory budget, `CACHE_BUDGET_MB` (default 80 MB; the images give
 * the heap 128 MB). Each cache gets a fixed share of it as the `maxSize` of its `lru-cache`, with
 * a `sizeCalculation` of what an entry holds, so no mix of requests can make the caches together
 * hold more than the budget, however many distinct queries, pages or accounts it names.
 *
 * The budget is the process's (its heap is), so it is set once, from the environment, before the
 * caches are made (`configureCacheBudget`: the server at boot, `createRoutes` for each app).
 *
 * Not counted here, because no request can grow them beyond the data: the catalogue's snapshot
 * and each part's own answer (one per part in the database), the embedded database's in-memory
 * order and account lists (one entry per stored record), the rate limits' counters (one per
 * client, for the length of its window).
 */
export const CACHE_SHARES = {
  /** GET /parts pages (body, ETag, ids) by parsed query. */
  partPages: 0.3,
  /** GET /review pages. */
  reviewPages: 0.05,
  /** My Order's pages (embedded database). */
  orderPages: 0.1,
  /** The orders' rows kept for My Order and Manage Order (embedded database). */
  orderRows: 0.3,
  /** Accounts read for the admin's list and the lookups by email (embedded database). */
  accounts: 0.15,
  /** Who a token's account is, for a few seconds (embedded database). */
  callers: 0.05,
  /** Parsed queries of the cached public reads, with their page headers. */
  queries: 0.04,
  /** Ids of the Stripe events this process applied lately: a repeat is answered at once. */
  stripeEvents: 0.01,
} as const;

export type CacheName = keyof typeof CACHE_SHARES;

export const DEFAULT_CACHE_BUDGET_MB = 80;
let budgetMb = DEFAULT_CACHE_BUDGET_MB;

/** Sets the process's cache budget (caches made afterwards take their share of it). */
export function configureCacheBudget(mb: number): void {
  budgetMb = mb;
}

/** The bytes the cache `name` may hold under the configured budget. */
export function cacheBytes(name: CacheName): number {
  return Math.max(64 * 1024, Math.floor(budgetMb * 1024 * 1024 * CACHE_SHARES[name]));
}

/**
 * Bytes a flat record is likely to take in V8's heap: its strings (two bytes a character at
 * worst) and a few words per other field, over an object's header. An estimate, as every
 * `sizeCalculation` is: what matters is that it grows with what the record holds.
 */
export function recordBytes(record: object): number {
  let bytes = 64;
  for (const value of Object.values(record)) {
    bytes += typeof value === 'string' ? 24 + 2 * value.length : 24;
  }
  return bytes;
}
