import { CachedReads } from './cached-reads';
import Router, { type RouterMiddleware } from '@koa/router';
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type ResponseConfig,
  type RouteConfig,
} from '@asteasolutions/zod-to-openapi';
import type { Middleware } from 'koa';
import { z } from 'zod';
import { apiErrorSchema } from '@motoparts/contracts';
import type { AppState } from './context';
import { docOf, type ErrorStatus, type InputSchemas, type SecurityScheme } from './route-docs';

/**
 * The OpenAPI 3.1 document of the API, built from the routes themselves: each route is
 * registered through `ApiRoutes`, which adds it to the Koa router and documents it from its
 * middleware (the `validate` schemas, the auth it requires, its rate limit) plus a short `RouteDoc`
 * next to it in `<resource>/routes.ts`, so the two cannot drift apart. Served at GET /openapi.json.
 */

const ERRORS: Record<ErrorStatus, string> = {
  400: 'BAD_REQUEST: the input does not match its schema (`details` names each field) or a rule refused it.',
  401: 'UNAUTHENTICATED: no valid token (missing, expired, signed out, or the account is gone).',
  403: 'FORBIDDEN: the caller may not do this.',
  404: 'NOT_FOUND: no such record.',
  409: 'CONFLICT: the record is not in a state that allows this.',
  413: 'PAYLOAD_TOO_LARGE: the body is larger than the limit (BODY_LIMIT_BYTES, or the route’s own).',
  414: 'URI_TOO_LONG: the path and query are longer than 4 KB.',
  415: 'UNSUPPORTED_MEDIA_TYPE: the body is not of the media type the route takes (JSON unless it says otherwise: a photo, a CSV file).',
  422: 'UNPROCESSABLE_ENTITY: the Idempotency-Key was used with another body.',
  429: 'TOO_MANY_REQUESTS: over the rate limit; `Retry-After` says when to try again.',
  500: 'INTERNAL: an unexpected error; the message names the request id.',
  502: 'PAYMENT_PROVIDER_ERROR: Stripe could not be reached.',
  503: 'SERVICE_UNAVAILABLE: the database (or the sign-in provider) is unreachable right now.',
};

/** What each resource's tag groups in the document. */
const TAGS: Record<string, string> = {
  'client-errors': 'The front ends’ reports of remotes that failed to load, counted per remote version.',
  health: 'Readiness and liveness probes.',
  images: 'Photos hosted by the API: uploads and the files they are served as.',
  meta: 'This document.',
  orders: 'Placing, listing, cancelling and shipping orders.',
  cart: 'Each customer’s cart, kept by the API.',
  checkout: 'Checking a cart out: one order per line, all or nothing, paid once.',
  parts: 'The catalogue and its stock.',
  payments: 'Card payments through Stripe.',
  reviews: 'Customer reviews.',
  sales: 'The admins’ Overview: revenue, orders, stock and held pieces.',
  site: 'What the shop’s web servers put into its public pages: part page heads, the sitemap, robots.txt.',
  users: 'Sign-in, profiles and accounts.',
};

const SECURITY_SCHEMES = {
  apiToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'Our API token, from PUT /user/{email}. Admin routes also need the account to be an admin now.',
  },
  firebaseIdToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A Firebase ID token: only the token exchange (PUT /user/{email}) takes one.',
  },
  stripeSignature: {
    type: 'apiKey',
    in: 'header',
    name: 'Stripe-Signature',
    description: "Stripe's signature over the raw body, checked with STRIPE_WEBHOOK_SECRET.",
  },
} as const;

const RESPONSE_HEADERS = {
  'X-Total-Count': { description: 'How many items the whole list has.', schema: { type: 'integer' } },
  Link: {
    description: 'RFC 8288 links to the first, previous, next and last pages.',
    schema: { type: 'string' },
  },
  ETag: {
    description: 'Strong validator of the body; send it back in If-None-Match.',
    schema: { type: 'string' },
  },
  'X-Facets': {
    description:
      'With `facets=true`: JSON counts of the search per filter choice, each counted with the other filters ' +
      'applied and its own not: `{"category":{"parts":n,"tools":n,"gear":n},"inStock":{"true":n,"false":n},' +
      '"price":{"under-25":n,"25-100":n,"100-250":n,"250-up":n}}`.',
    schema: { type: 'string' },
  },
  'Content-Encoding': {
    description: '`gzip` when the request accepts it and the body is at least 1,024 bytes; absent otherwise.',
    schema: { type: 'string' },
  },
  Location: { description: 'Where the created record can be read.', schema: { type: 'string' } },
  'Cache-Control': { description: 'How long the answer may be reused.', schema: { type: 'string' } },
  'X-Content-Type-Options': {
    description: '`nosniff`: the answer is only ever read as the type it declares.',
    schema: { type: 'string' },
  },
} as const;
export type ResponseHeader = keyof typeof RESPONSE_HEADERS;

/** The shared error shape of every 4xx and 5xx answer. */
export const ErrorSchema = apiErrorSchema.meta({ id: 'Error' });

/** What a route's middleware cannot say about it. */
export interface RouteDoc {
  /** The operation's name for client generators (unique; `openapi.test.ts` checks). */
  operationId: string;
  summary: string;
  description?: string;
  /** The success answer. */
  ok: {
    status?: 200 | 201;
    description: string;
    body?: z.ZodType;
    headers?: ResponseHeader[];
    /** Answers 304 to a matching If-None-Match. */
    revalidates?: boolean;
    /** The answer's media type when not JSON: a CSV download (text) or a hosted photo (binary). */
    mediaType?: string;
  };
  /** Request headers it reads, besides Authorization and the body's Content-Type. */
  headers?: z.ZodObject;
  /** Who may call it, when the handler checks that itself (the Stripe webhook's signature). */
  security?: SecurityScheme;
  /** A body the route reads itself instead of `validate` (the Stripe webhook's signed bytes). */
  rawBody?: { mediaType: string | string[]; description: string };
  /** Refusals of the route's own rules; input, auth and rate-limit refusals come from its middleware. */
  errors?: ErrorStatus[];
  /** Answers without the database (no 503). */
  noDatabase?: boolean;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

const json = (schema: z.ZodType) => ({ 'application/json': { schema } });

export class ApiRoutes {
  readonly router = new Router<AppState>();
  /** Hot public reads answered from their cache before the router (http/cached-reads.ts). */
  readonly cached = new CachedReads();
  private readonly registry = new OpenAPIRegistry();
  private document: ReturnType<OpenApiGeneratorV31['generateDocument']> | undefined;
  private readonly tags = new Set<string>();

  constructor(private readonly info: { title: string; version: string; description: string }) {
    for (const [name, scheme] of Object.entries(SECURITY_SCHEMES)) {
      this.registry.registerComponent('securitySchemes', name, scheme);
    }
  }

  /** The routes of one resource, tagged with its name in the document. */
  section(tag: string): RouteSection {
    this.tags.add(tag);
    return new RouteSection(this, tag);
  }

  /** Registers a route on the router and in the document. */
  add<T>(
    tag: string,
    method: Method,
    path: string,
    doc: RouteDoc,
    middleware: Middleware<AppState & T>[],
  ): void {
    // Koa calls them with the router's context; `T` is what the route's own middleware put in the
    // state before the handler runs, which the router's typings cannot follow.
    this.router[method](path, ...(middleware as unknown as RouterMiddleware<AppState>[]));
    this.registry.registerPath(this.operation(tag, method, path, doc, middleware));
    this.document = undefined;
  }

  /** The OpenAPI 3.1 document of every route registered so far. */
  openApi(): ReturnType<OpenApiGeneratorV31['generateDocument']> {
    this.document ??= new OpenApiGeneratorV31(this.registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: { ...this.info, license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' } },
      // Relative: the document is served by the API it describes, wherever that is deployed.
      servers: [{ url: '/', description: 'The API serving this document' }],
      tags: [...this.tags].sort().map((name) => ({ name, description: TAGS[name] ?? name })),
    });
    return this.document;
  }

  private operation(
    tag: string,
    method: Method,
    path: string,
    doc: RouteDoc,
    middleware: object[],
  ): RouteConfig {
    const docs = middleware.flatMap((m) => docOf(m) ?? []);
    const request = Object.assign({}, ...docs.map((d) => d.request)) as InputSchemas;
    const security = doc.security ?? docs.find((d) => d.security)?.security;
    const adminOnly = docs.some((d) => d.adminOnly);
    const errors = new Set<ErrorStatus>([
      ...docs.flatMap((d) => d.errors ?? []),
      ...(doc.errors ?? []),
      ...(doc.noDatabase ? [] : [503 as const]),
      414, // any route, before it runs (http/request-line.ts)
      500,
    ]);
    const { status = 200, description, body, headers = [], revalidates, mediaType } = doc.ok;
    const responses: Record<string, ResponseConfig> = {
      [status]: {
        description,
        ...(mediaType
          ? {
              content: {
                [mediaType]: {
                  schema:
                    body ??
                    (mediaType.startsWith('text/') ? z.string() : z.string().meta({ format: 'binary' })),
                },
              },
            }
          : body
            ? { content: json(body) }
            : {}),
        ...(headers.length > 0
          ? { headers: Object.fromEntries(headers.map((h) => [h, RESPONSE_HEADERS[h]])) }
          : {}),
      },
    };
    if (revalidates)
      responses[304] = { description: 'Not modified: the If-None-Match tag is still current.' };
    for (const code of [...errors].sort((a, b) => a - b)) {
      responses[code] = { description: ERRORS[code], content: json(ErrorSchema) };
    }
    return {
      method,
      path: openApiPath(path),
      operationId: doc.operationId,
      tags: [tag],
      summary: doc.summary,
      description:
        [doc.description, adminOnly ? 'Admins only.' : undefined].filter(Boolean).join(' ') || undefined,
      security: security ? [{ [security]: [] }] : [],
      ...(adminOnly ? { 'x-admin-only': true } : {}),
      request: {
        ...(request.params ? { params: request.params } : {}),
        ...(request.query ? { query: request.query } : {}),
        ...(doc.headers ? { headers: doc.headers } : {}),
        ...(request.body
          ? { body: { content: json(request.body) } }
          : doc.rawBody
            ? {
                body: {
                  description: doc.rawBody.description,
                  content: Object.fromEntries(
                    [doc.rawBody.mediaType].flat().map((type) => [type, { schema: z.string() }]),
                  ),
                },
              }
            : {}),
      },
      responses,
    };
  }
}

/** One resource's routes: `get`, `post`, … register the route with its doc and middleware. */
export class RouteSection {
  constructor(
    private readonly routes: ApiRoutes,
    private readonly tag: string,
  ) {}

  get<T = object>(path: string, doc: RouteDoc, ...middleware: Middleware<AppState & T>[]): this {
    return this.add('get', path, doc, middleware);
  }
  post<T = object>(path: string, doc: RouteDoc, ...middleware: Middleware<AppState & T>[]): this {
    return this.add('post', path, doc, middleware);
  }
  put<T = object>(path: string, doc: RouteDoc, ...middleware: Middleware<AppState & T>[]): this {
    return this.add('put', path, doc, middleware);
  }
  patch<T = object>(path: string, doc: RouteDoc, ...middleware: Middleware<AppState & T>[]): this {
    return this.add('patch', path, doc, middleware);
  }
  delete<T = object>(path: string, doc: RouteDoc, ...middleware: Middleware<AppState & T>[]): this {
    return this.add('delete', path, doc, middleware);
  }

  private add<T>(method: Method, path: string, doc: RouteDoc, middleware: Middleware<AppState & T>[]): this {
    this.routes.add(this.tag, method, path, doc, middleware);
    return this;
  }
}
