import type Stripe from 'stripe';
import type { Callers } from './http/auth';
import type { Env } from './lib/env';
import type { RateLimits } from './lib/rate-limits';
import type { OpenPayments } from './orders/payments-port';
import type { PartCatalogue } from './parts/catalogue';
import type { ReadModels } from './read-models';
import type { ReviewPages } from './reviews/service';
import type { UserLookup } from './users/lookup';
import type { LegacyClaim } from './users/service';

/**
 * What the resources' routes get: the app's configuration and its per-app services, made once by
 * `createRoutes` (app.ts). Its own module, below the app, so the routes never import the app.
 */
export interface RouteDeps {
  env: Env;
  /** Who a token's account is now (the auth middleware's read: users/callers.ts). */
  callers: Callers;
  limits: RateLimits;
  stripe: Stripe;
  /** The payments as the orders see them (settling an open payment before a release). */
  payments: OpenPayments;
  catalogue: PartCatalogue;
  reviewPages: ReviewPages;
  /** Accounts by email (in memory on the embedded database). */
  userLookup: UserLookup;
  /** The lists read from memory or from the database (read-models.ts). */
  reads: ReadModels;
  /** A first verified sign-in's claim of the orders placed under its address before accounts. */
  claimOrders: LegacyClaim;
  /** Whether orders still need a part (a deleted part is then archived: parts/service.ts). */
  partHasOpenOrders: (partId: string) => Promise<boolean>;
}
