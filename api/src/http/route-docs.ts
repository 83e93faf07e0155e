import type { z } from 'zod';

/**
 * What a route's middleware says about the routes it guards (the parts of the request it parses,
 * the access it requires, the refusals it can answer), kept beside the middleware so that the
 * OpenAPI document (http/openapi.ts) is written from the middleware a route really runs.
 */

/** The error statuses an operation may document (each has its text in http/openapi.ts). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 414 | 415 | 422 | 429 | 500 | 502 | 503;

/** Who may call a route, as the document's security schemes say it. */
export type SecurityScheme = 'apiToken' | 'firebaseIdToken' | 'stripeSignature';

/** The parts of a request a route reads; each an object schema (a body may be any schema). */
export interface InputSchemas {
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
}

/** What a middleware adds to the documentation of the routes it guards. */
export interface MiddlewareDoc {
  security?: SecurityScheme;
  adminOnly?: boolean;
  request?: InputSchemas;
  errors?: ErrorStatus[];
}

const middlewareDocs = new WeakMap<object, MiddlewareDoc>();

/** Attaches documentation to a middleware; returns the middleware. */
export function documented<M extends object>(middleware: M, doc: MiddlewareDoc): M {
  middlewareDocs.set(middleware, doc);
  return middleware;
}

/** The documentation attached to a middleware, if any. */
export function docOf(middleware: object): MiddlewareDoc | undefined {
  return middlewareDocs.get(middleware);
}
