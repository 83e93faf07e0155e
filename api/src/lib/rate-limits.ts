import mongoose from 'mongoose';
import {
  RateLimiterMemory,
  RateLimiterMongo,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Env } from './env';
import { AppError } from './app-error';

/** What is limited, and the default budget: `points` requests per `seconds`, per key. */
export const RATE_LIMITS = {
  /** PUT /user/:email per client address (before the token is even verified). */
  exchangeIp: { points: 60, seconds: 60, message: 'Too many sign-in attempts from here' },
  /** PUT /user/:email per Firebase account. */
  exchangeUser: { points: 10, seconds: 60, message: 'Too many sign-in attempts for this account' },
  /** POST /order per account. */
  order: { points: 10, seconds: 60, message: 'Too many orders in a short time' },
  /** POST /review per account. */
  review: { points: 5, seconds: 60 * 60, message: 'Too many reviews in a short time' },
  /** Anonymous list paging (GET /parts, GET /review) per client address (IPv6: per /64). */
  listing: { points: 600, seconds: 60, message: 'Too many requests from here' },
  /** The same lists for a signed-in caller, per account: never the budget of their address. */
  listingAccount: { points: 1200, seconds: 60, message: 'Too many requests from this account' },
  /** POST /checkout per account. */
  checkout: { points: 10, seconds: 60, message: 'Too many checkouts in a short time' },
  /** Every route that calls Stripe (payment intents, payment claims, cancellations), per account. */
  stripe: { points: 20, seconds: 60, message: 'Too many payment requests in a short time' },
  /** POST /images per account (each one decodes and re-encodes a photo). */
  images: { points: 60, seconds: 60 * 60, message: 'Too many photos uploaded in a short time' },
  /** POST /client-errors (the front ends' load-failure reports) per client address (IPv6: per /64). */
  clientErrors: { points: 30, seconds: 60, message: 'Too many error reports from here' },
} as const;

export type LimitName = keyof typeof RATE_LIMITS;

export interface RateLimits {
  /** Counts one request for `key`; throws a 429 AppError (with Retry-After) when over budget. */
  consume(name: LimitName, key: string): Promise<void>;
}

/** Parses `RATE_LIMIT_<NAME>=<points>/<seconds>` overrides (env.ts validates the format). */
function budget(env: Env, name: LimitName): { points: number; seconds: number } {
  const override = env.RATE_LIMITS[name];
  return override ?? RATE_LIMITS[name];
}

/**
 * One limiter per kind. With the embedded database there is exactly one API process, so counters
 * live in memory; with MONGODB_URI several processes may serve the same users, so the counters
 * are shared in MongoDB (rate-limiter-flexible's store: one atomic upsert per request, with a TTL
 * index) and fall back to memory while the database is away rather than refusing everyone.
 */
export function createRateLimits(env: Env): RateLimits {
  const shared = (env.RATE_LIMIT_STORE ?? (env.MONGODB_EMBEDDED ? 'memory' : 'mongo')) === 'mongo';
  const limiters = new Map<LimitName, RateLimiterAbstract>();
  for (const name of Object.keys(RATE_LIMITS) as LimitName[]) {
    const { points, seconds } = budget(env, name);
    const opts = { points, duration: seconds, keyPrefix: `rl_${name}` };
    limiters.set(
      name,
      shared
        ? new RateLimiterMongo({
            ...opts,
            storeClient: mongoose.connection,
            tableName: 'rate_limits',
            // FerretDB has no TTL indexes (it refuses expireAfterSeconds); MongoDB gets them.
            disableIndexesCreation: env.MONGODB_EMBEDDED,
            insuranceLimiter: new RateLimiterMemory(opts),
          })
        : new RateLimiterMemory(opts),
    );
  }
  return {
    async consume(name, key) {
      const limiter = limiters.get(name);
      if (!limiter || limiter.points === 0) return;
      try {
        await limiter.consume(key);
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
        throw AppError.tooManyRequests(
          `${RATE_LIMITS[name].message}; try again in ${retryAfter} s.`,
          retryAfter,
        );
      }
    },
  };
}
