import koaCors from '@koa/cors';
import type { Middleware } from 'koa';
import type { Env } from '../lib/env';
import type { AppState } from './context';

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

const EXPOSE_HEADERS = 'X-Total-Count, X-Facets, Link, ETag, X-Request-Id';

type CorsEnv = Pick<Env, 'NODE_ENV' | 'CORS_ORIGINS'>;

/**
 * Which origins may read our answers: the CORS_ORIGINS list, plus any localhost origin unless we
 * run in production with an explicit list (the local stack runs NODE_ENV=development).
 */
function originPolicy(env: CorsEnv): (origin: string) => boolean {
  const allowed = new Set(env.CORS_ORIGINS);
  const allowLocal = env.NODE_ENV !== 'production' || allowed.size === 0;
  return (origin) => origin !== '' && (allowed.has(origin) || (allowLocal && LOCAL_ORIGIN.test(origin)));
}

/**
 * The CORS headers of a simple GET's answer, as the middleware below sets them (@koa/cors:
 * `Vary: Origin` always, the origin and exposed headers when it is allowed), for answers sent
 * before Koa's middleware (http/cached-reads.ts).
 */
export function simpleCorsHeaders(env: CorsEnv): (origin: string | undefined) => Record<string, string> {
  const allows = originPolicy(env);
  const plain = { Vary: 'Origin' };
  return (origin) =>
    origin && allows(origin)
      ? {
          Vary: 'Origin',
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Expose-Headers': EXPOSE_HEADERS,
        }
      : plain;
}

/** CORS for the front ends (see originPolicy). */
export function cors(env: CorsEnv): Middleware<AppState> {
  const allows = originPolicy(env);
  const withCorsHeaders = koaCors({
    origin: (ctx) => {
      const origin = ctx.get('origin');
      return allows(origin) ? origin : '';
    },
    exposeHeaders: EXPOSE_HEADERS,
    allowMethods: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    allowHeaders: 'Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id',
    maxAge: 600,
  });
  return (ctx, next) =>
    withCorsHeaders(ctx, async () => {
      // A preflight from an origin that is not allowed still gets an empty 204 (without CORS
      // headers, so the browser refuses), never the router's answer for that path.
      if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
        ctx.status = 204;
        return;
      }
      await next();
    });
}
