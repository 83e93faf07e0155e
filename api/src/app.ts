import Router from '@koa/router';
import Koa from 'koa';
import type { AppDeps, AppState } from './context';
import { catalogCacheTtlMs } from './env';
import { configureCatalogCache } from './lib/catalog-cache';
import { createRateLimits } from './lib/rate-limits';
import { createStripe } from './lib/stripe';
import { jsonBody } from './middleware/body';
import { cors } from './middleware/cors';
import { errorHandler } from './middleware/errors';
import { requestLog } from './middleware/request-log';
import { healthRoutes } from './routes/health';
import { orderRoutes } from './routes/orders';
import { partRoutes } from './routes/parts';
import { reviewRoutes } from './routes/reviews';
import { userRoutes } from './routes/users';
import { partCatalog } from './services/catalog';

/** The Koa app with every route; connecting the database is the caller's job (see server.ts). */
export function createApp(deps: AppDeps): Koa<AppState> {
  const { env, logger } = deps;
  const app = new Koa<AppState>({ proxy: env.NODE_ENV === 'production' });
  app.silent = true; // errors are logged by our own middleware, with the request id
  const router = new Router<AppState>();
  configureCatalogCache(catalogCacheTtlMs(env));
  partCatalog.configure(catalogCacheTtlMs(env));

  const routeDeps = { ...deps, limits: createRateLimits(env) };
  healthRoutes(router);
  partRoutes(router, routeDeps);
  orderRoutes(router, routeDeps, createStripe(env));
  reviewRoutes(router, routeDeps);
  userRoutes(router, routeDeps);

  app.use(requestLog(logger));
  app.use(errorHandler());
  app.use(cors(env));
  app.use(jsonBody({ limit: env.BODY_LIMIT_BYTES, rawPaths: { '/webhooks/stripe': 512 * 1024 } }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
