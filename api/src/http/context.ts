import type { DefaultContext, ParameterizedContext } from 'koa';
import type { Logger } from '../lib/logger';

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
  /** Firebase has verified the account's email (as of its last sign-in). */
  verified: boolean;
}

export interface AppState {
  requestId: string;
  log: Logger;
  /** Raw request bytes (only the Stripe webhook route gets them). */
  rawBody?: Buffer;
  caller?: Caller;
  /** The Firebase ID token of a token exchange (PUT /user/:email). */
  idToken?: string;
  /** A CSV upload's text (http/csv-body.ts), only on the routes that take one. */
  csvText?: string;
  /** The route's params, query and body as its `validate` middleware parsed them. */
  input?: unknown;
}

export type AppContext = ParameterizedContext<AppState, DefaultContext>;
