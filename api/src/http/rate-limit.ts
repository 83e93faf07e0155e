import type { Middleware } from 'koa';
import type { LimitName, RateLimits } from '../lib/rate-limits';
import type { AppState } from './context';
import { documented } from './openapi';

/**
 * Counts the request against one abuse limit (lib/rate-limits.ts) under the key `keyOf` picks:
 * the client address or the caller's account. Where it sits in a route's middleware decides what
 * counts: before `validate`, malformed requests too; after it, only valid ones.
 */
export function rateLimited(
  limits: RateLimits,
  name: LimitName,
  keyOf: (state: AppState, ip: string) => string,
): Middleware<AppState> {
  return documented<Middleware<AppState>>(
    async (ctx, next) => {
      await limits.consume(name, keyOf(ctx.state, ctx.ip));
      await next();
    },
    { errors: [429] },
  );
}
