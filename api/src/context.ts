import type { ParameterizedContext, DefaultContext } from 'koa';
import type { RouterContext } from '@koa/router';
import type { Env } from './env';
import type { Logger } from './logger';

/** Who is calling, from our own API token. `admin` is looked up fresh when a rule needs it. */
export interface Caller {
  email: string;
  name: string;
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

export type AppContext = ParameterizedContext<AppState, DefaultContext>;
export type RouteContext = RouterContext<AppState, DefaultContext>;
