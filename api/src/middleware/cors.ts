import type { Middleware } from 'koa';
import type { AppState } from '../context';
import type { Env } from '../env';

const LOCAL_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/;

/**
 * CORS for the front ends: the CORS_ORIGINS list, plus any localhost origin unless we run in
 * production with an explicit list (the local stack runs NODE_ENV=development).
 */
export function cors(env: Pick<Env, 'NODE_ENV' | 'CORS_ORIGINS'>): Middleware<AppState> {
  const allowed = new Set(env.CORS_ORIGINS);
  const allowLocal = env.NODE_ENV !== 'production' || allowed.size === 0;
  return async (ctx, next) => {
    ctx.vary('Origin');
    const origin = ctx.get('origin');
    const ok = origin !== '' && (allowed.has(origin) || (allowLocal && LOCAL_ORIGIN.test(origin)));
    if (ok) {
      ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('Access-Control-Expose-Headers', 'X-Total-Count, Link, ETag, X-Request-Id');
    }
    if (ctx.method === 'OPTIONS' && ctx.get('access-control-request-method')) {
      if (ok) {
        ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
        ctx.set(
          'Access-Control-Allow-Headers',
          'Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Request-Id',
        );
        ctx.set('Access-Control-Max-Age', '600');
      }
      ctx.status = 204;
      return;
    }
    await next();
  };
}
