import type { ParameterizedContext, DefaultContext } from 'koa';
import type { RouterContext } from '@koa/router';
import type { Env } from './env';
import type { RateLimits } from './lib/rate-limits';
import type { Logger } from './logger';

/**
 * Who is calling: the Firebase uid from our API token, with the account's email, name and role
 * as the database holds them now (loaded per request, so a role change or a sign-out is seen at
 * once).
 */
export interface Caller {
  uid: string;
  email: string;
  name: string;
  admin: boolean;
}

export interface AppState {
  requestId: string;
  log: Logger;
  /** Raw request bytes (only the Stripe webhook route uses them). */
  rawBody?: Buffer;
  /** Parsed JSON body, `undefined` when none was sent. */
  body?: unknown;
  caller?: Caller;
}

export interface AppDeps {
  env: Env;
  logger: Logger;
}

/** What routes get: the app's deps plus the shared abuse limits. */
export interface RouteDeps extends AppDeps {
  limits: RateLimits;
}

export type AppContext = ParameterizedContext<AppState, DefaultContext>;
export type RouteContext = RouterContext<AppState, DefaultContext>;
