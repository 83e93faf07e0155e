import { timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Middleware } from 'koa';
import type { Env } from '../lib/env';
import type { LimitName, RateLimits } from '../lib/rate-limits';
import { bearer, verifyApiToken } from '../lib/tokens';
import type { AppContext, AppState } from './context';
import { documented } from './route-docs';

/**
 * The key of a client address in the per-address budgets: an IPv4 address (IPv4-mapped IPv6
 * included) as it is, an IPv6 address by its /64, since one subscriber or host is given a whole
 * /64 and could otherwise take a new budget with every address of it.
 */
export function clientKey(ip: string): string {
  // Every listing read asks: IPv4 (and the IPv4-mapped form sockets report) is already its key,
  // and node's check costs a fraction of ipaddr's parse and its garbage.
  if (isIPv4(ip)) return ip;
  if (ip.startsWith('::ffff:') && isIPv4(ip.slice(7))) return ip.slice(7);
  if (!ipaddr.isValid(ip)) return ip;
  const addr = ipaddr.process(ip); // IPv4-mapped IPv6 → IPv4
  if (addr.kind() === 'ipv4') return addr.toString();
  const parts = (addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}

/**
 * Counts the request against one abuse limit (lib/rate-limits.ts) under the key `keyOf` picks:
 * the client's address key (`clientKey`) or the caller's account. Where it sits in a route's
 * middleware decides what counts: before `validate`, malformed requests too; after it, only
 * valid ones.
 */
export function rateLimited(
  limits: RateLimits,
  name: LimitName,
  keyOf: (state: AppState, client: string) => string,
): Middleware<AppState> {
  return documented<Middleware<AppState>>(
    async (ctx, next) => {
      await limits.consume(name, keyOf(ctx.state, clientKey(ctx.ip)));
      await next();
    },
    { errors: [429] },
  );
}

/** Whether the request comes from one of the shop's own servers (`SERVICE_TOKEN`). */
function fromShopServer(env: Env, ctx: AppContext): boolean {
  const sent = ctx.get('x-service-token');
  if (!env.SERVICE_TOKEN || !sent) return false;
  const [a, b] = [Buffer.from(sent), Buffer.from(env.SERVICE_TOKEN)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The public lists' limit, by who is asking: a request with a valid API token (its signature and
 * expiry checked here, without the database) counts against its account's budget, never against
 * the anonymous budget of its address, so a workshop's admin behind one NAT is not locked out by
 * the visitors beside them; a bad or expired token counts as anonymous. The shop's own servers
 * (`X-Service-Token`) are not limited. Used by the routes and by their cached answers
 * (http/cached-reads.ts), which both count one request once.
 */
export function listingCounter(env: Env, limits: RateLimits): (ctx: AppContext) => Promise<void> {
  return (ctx) => {
    if (fromShopServer(env, ctx)) return Promise.resolve();
    const token = bearer(ctx.get('authorization'));
    if (token) {
      try {
        return limits.consume('listingAccount', verifyApiToken(env, token).uid);
      } catch {
        // Not a token of ours (or expired): the request is anonymous.
      }
    }
    return limits.consume('listing', clientKey(ctx.ip));
  };
}

/** `listingCounter` as a route's middleware (documented: 429). */
export function listingLimited(env: Env, limits: RateLimits): Middleware<AppState> {
  const count = listingCounter(env, limits);
  return documented<Middleware<AppState>>(
    async (ctx, next) => {
      await count(ctx);
      await next();
    },
    { errors: [429] },
  );
}
