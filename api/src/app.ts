import Koa from 'koa';
import { clientErrorRoutes } from './client-errors/routes';
import { healthRoutes } from './health/routes';
import { imageRoutes } from './images/routes';
import type { RouteDeps } from './route-deps';
import { jsonBody } from './http/body';
import type { AppState } from './http/context';
import type { Listener } from './http/cached-reads';
import { compression } from './http/compress';
import { cors, simpleCorsHeaders } from './http/cors';
import { errorHandler } from './http/errors';
import { sendTaggedJson } from './http/etag';
import { ApiRoutes } from './http/openapi';
import { requestLog } from './http/request-log';
import { refuseLongUrls } from './http/request-line';
import { taggedJson } from './lib/catalog-cache';
import { catalogCacheTtlMs, type Env } from './lib/env';
import { trackRequests } from './lib/lifecycle';
import type { Logger } from './lib/logger';
import { createRateLimits } from './lib/rate-limits';
import { createStripe } from './lib/stripe';
import { orderRoutes } from './orders/routes';
import { catalogueFor, type PartCatalogue } from './parts/catalogue';
import { partRoutes } from './parts/routes';
import { IMPORT_PATH, partTransferRoutes } from './parts/transfer-routes';
import { checkoutRoutes } from './orders/checkout-routes';
import { claimLegacyOrders } from './orders/legacy';
import { partHasOpenOrders } from './orders/lifecycle';
import { paymentRoutes } from './payments/routes';
import { readModelsFor, type ReadModels } from './read-models';
import { stripePayments } from './payments/service';
import { ReviewPages } from './reviews/service';
import { reviewRoutes } from './reviews/routes';
import { salesRoutes } from './sales/routes';
import { siteRoutes } from './site/routes';
import { callersFor } from './users/callers';
import { userLookupFor, type UserLookup } from './users/lookup';
import { userRoutes } from './users/routes';

export interface AppDeps {
  env: Env;
  logger: Logger;
  /**
   * The parts catalogue and its cache. The server passes the one it warms before reporting
   * ready; without it the app makes its own. Never shared between apps.
   */
  catalogue?: PartCatalogue;
  /** Accounts by email; likewise passed by the server, which warms it before reporting ready. */
  userLookup?: UserLookup;
  /** The orders' lists and the open-order cap, memory or database (read-models.ts); likewise. */
  reads?: ReadModels;
}

/** Stripe signs the webhook's exact bytes; its events may be larger than our own bodies. */
const RAW_BODY_PATHS = { '/webhooks/stripe': 512 * 1024 };
/**
 * Bodies their routes read from the stream, each with its own limit and media type: photo uploads
 * (images/routes.ts) and the CSV import (parts/transfer-routes.ts).
 */
const OWN_BODY_PATHS = ['/images', IMPORT_PATH];

/** Every route of the API, registered on one router and documented in one OpenAPI document. */
export function createRoutes({
  env,
  catalogue = catalogueFor(env),
  userLookup = userLookupFor(env),
  reads = readModelsFor(env),
}: AppDeps): ApiRoutes {
  const routes = new ApiRoutes({
    title: 'MotoParts API',
    version: '1.0.0',
    description:
      'The shop API behind the MotoParts front ends. Errors always answer `{ "error": { "code", "message", "details"? } }`.',
  });
  const stripe = createStripe(env);
  const deps: RouteDeps = {
    env,
    callers: callersFor(env),
    limits: createRateLimits(env),
    stripe,
    payments: stripePayments(stripe),
    catalogue,
    reviewPages: new ReviewPages(catalogCacheTtlMs(env)),
    userLookup,
    reads,
    claimOrders: (uid, email) => claimLegacyOrders(uid, email, reads.orders),
    partHasOpenOrders,
  };
  healthRoutes(routes);
  partRoutes(routes, deps);
  partTransferRoutes(routes, deps);
  orderRoutes(routes, deps);
  checkoutRoutes(routes, deps);
  paymentRoutes(routes, deps);
  reviewRoutes(routes, deps);
  userRoutes(routes, deps);
  salesRoutes(routes, deps);
  imageRoutes(routes, deps);
  siteRoutes(routes, deps);
  clientErrorRoutes(routes, deps);

  // Last, so the document it serves lists every route (itself included).
  let document: ReturnType<typeof taggedJson> | undefined;
  routes.section('meta').get(
    '/openapi.json',
    {
      operationId: 'getOpenApiDocument',
      summary: 'This API, as an OpenAPI 3.1 document',
      ok: { description: 'The document.', headers: ['ETag', 'Cache-Control'], revalidates: true },
      noDatabase: true,
    },
    async (ctx) => {
      document ??= taggedJson(routes.openApi());
      // Changes only with a new version of the API: reusable for a while without asking.
      sendTaggedJson(ctx, document, 'public, max-age=300');
    },
  );
  return routes;
}

/**
 * Koa with the cached public reads answered in front of its middleware (CachedReads.front):
 * `listen` and `callback` (what the server and the tests use) both go through it.
 */
class ApiApp extends Koa<AppState> {
  constructor(
    options: { proxy: boolean; maxIpsCount: number },
    private readonly front: (app: ApiApp, next: Listener) => Listener,
  ) {
    super(options);
  }

  override callback(): Listener {
    return this.front(this, super.callback());
  }
}

/** The Koa app with every route; connecting the database is the caller's job (see server.ts). */
export function createApp(deps: AppDeps): Koa<AppState> {
  const { env, logger } = deps;
  const { router, cached } = createRoutes(deps);
  const front = { logger, corsHeaders: simpleCorsHeaders(env) };
  // Only the hops the operator declares are trusted: ctx.ip is then the address the outermost of
  // them saw, not the leftmost X-Forwarded-For entry, which the client writes.
  const app = new ApiApp(
    { proxy: env.TRUST_PROXY_HOPS > 0, maxIpsCount: env.TRUST_PROXY_HOPS },
    (self, next) => cached.front(self, front, next),
  );
  app.silent = true; // errors are logged by our own middleware, with the request id

  app.use(trackRequests());
  app.use(requestLog(logger));
  app.use(errorHandler());
  app.use(cors(env));
  app.use(compression());
  app.use(refuseLongUrls());
  app.use(cached.middleware());
  app.use(jsonBody({ limit: env.BODY_LIMIT_BYTES, rawPaths: RAW_BODY_PATHS, ownPaths: OWN_BODY_PATHS }));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
