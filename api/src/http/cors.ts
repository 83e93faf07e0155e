import koaCors from '@koa/cors';
import type { Middleware } from 'koa';
import type { Env } from '../lib/env';
import type { AppState } from './context';

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * CORS for the front ends: the CORS_ORIGINS list, plus any localhost origin unless we run in
 * production with an explicit list (the local stack runs NODE_ENV=development).
 */
export function cors(env: Pick<Env, 'NODE_ENV' | 'CORS_ORIGINS'>): Middleware<AppState> {
  const allowed = new Set(env.CORS_ORIGINS);
  const allowLocal = env.NODE_ENV !== 'production' || allowed.size === 0;
  const withCorsHeaders = koaCors({
    origin: (ctx) => {
      const origin = ctx.get('origin');
      const ok = origin !== '' && (allowed.has(origin) || (allowLocal && LOCAL_ORIGIN.test(origin)));
      return ok ? origin : '';
    },
    exposeHeaders: 'X-Total-Count, Link, ETag, X-Request-Id',
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
