import type { Middleware } from 'koa';

/**
 * Process state shared by the health routes and the shutdown sequence: once draining, readiness
 * (`/health`) answers 503 so load balancers stop sending traffic, liveness (`/livez`) stays 200,
 * and every answer carries `Connection: close` so keep-alive clients reconnect elsewhere.
 */
export const lifecycle = {
  draining: false,
  /** Set by the server while it loads the catalogue after connecting: not ready for traffic yet. */
  warming: false,
  inFlight: 0,
};

/** Counts the requests in flight and closes keep-alive connections once draining (any app state). */
export function trackRequests(): Middleware {
  return async (ctx, next) => {
    lifecycle.inFlight += 1;
    try {
      await next();
    } finally {
      lifecycle.inFlight -= 1;
      if (lifecycle.draining) ctx.set('Connection', 'close');
    }
  };
}
