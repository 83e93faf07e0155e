import type Stripe from 'stripe';
import type { Env } from './lib/env';
import type { RateLimits } from './lib/rate-limits';
import type { OpenPayments } from './orders/payments-port';
import type { PartCatalogue } from './parts/catalogue';
import type { ReadModels } from './read-models';
import type { ReviewPages } from './reviews/service';
import type { UserLookup } from './users/lookup';

/**
 * What the resources' routes get: the app's configuration and its per-app services, made once by
 * `createRoutes` (app.ts). Its own module, below the app, so the routes never import the app.
 */
export interface RouteDeps {
  env: Env;
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
}
