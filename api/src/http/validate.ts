import type { Middleware } from 'koa';
import { LRUCache } from 'lru-cache';
import { z, type ZodError } from 'zod';
import { objectIdSchema } from '@motoparts/contracts';
import { AppError } from '../lib/app-error';
import { cacheBytes } from '../lib/cache-budget';
import type { AppState } from './context';
import { documented, type InputSchemas } from './route-docs';

/** What `validate(schemas)` leaves in `ctx.state.input`: each part parsed by its schema. */
export type Input<S extends InputSchemas> = {
  [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never;
};

/** Field-by-field problems in a form the client can show next to its inputs. */
export function zodDetails(err: ZodError): { path: string; message: string }[] {
  return err.issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));
}

const uniquePaths = (details: { path: string }[]) => [...new Set(details.map((d) => d.path))].join(', ');

/** The 400 for a body that does not match its schema (also used for stray ZodErrors). */
export function invalidInput(err: ZodError): AppError {
  const details = zodDetails(err);
  return AppError.badRequest(`Invalid input: ${uniquePaths(details)}`, details);
}

function parseParams<S extends z.ZodObject>(schema: S, params: Record<string, string>): z.output<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const details = zodDetails(parsed.error);
  const first = details[0];
  throw AppError.badRequest(
    `Invalid ${first?.path ?? 'parameter'} in the path: ${first?.message ?? 'malformed'}`,
    details,
  );
}

function parseQuery<S extends z.ZodObject>(schema: S, query: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  const details = zodDetails(parsed.error);
  throw AppError.badRequest(`Invalid query: ${uniquePaths(details)}`, details);
}

function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  // No body counts as `{}`, so the 400 names each missing field.
  const parsed = schema.safeParse(body === undefined ? {} : body);
  if (parsed.success) return parsed.data;
  throw invalidInput(parsed.error);
}

/**
 * Parsed queries kept by the cached public reads (`queryParser`), all parsers together, within
 * their share of the cache budget; made on first use, after the server has set the budget.
 */
let keptQueries: LRUCache<string, object> | undefined;
let parsers = 0;

/** The longest parameter value whose parse is kept: the lists' own values are far shorter. */
const MAX_KEPT_VALUE = 200;
/** The longest query string kept as sent (`ofRequest`). */
const MAX_KEPT_RAW = 512;

/**
 * A query parser for the hot public lists, which are read again and again with the same few
 * queries (parsing one costs a fifth of a cached answer's time). Its answers are kept under the
 * canonical form of what the schema reads: the parameters it knows, by name, each value as
 * sent; other parameters, their order and anything over MAX_KEPT_VALUE never make a new entry,
 * so a client cannot fill the memory with URLs that differ only in junk. Answers are frozen,
 * because requests share them. A query the schema refuses throws the route's 400 (not kept).
 */
export function queryParser<S extends z.ZodObject>(schema: S) {
  const names = Object.keys(schema.shape).sort();
  const known = new Set(names);
  const parser = parsers++;
  const prefix = `${parser}?`;
  const parse = (query: Record<string, unknown>): Readonly<z.output<S>> => {
    let key = prefix;
    for (const name of names) {
      const value = query[name];
      if (value === undefined) continue;
      // A value's length before it (a string) or its JSON (a repeated parameter's list): no two
      // queries share a key, and the usual single values cost no escaping.
      const text = typeof value === 'string' ? `${value.length}:${value}` : JSON.stringify(value);
      if (text.length > MAX_KEPT_VALUE) return Object.freeze(parseQuery(schema, query));
      key += `${name}=${text}&`;
    }
    keptQueries ??= new LRUCache<string, object>({
      maxSize: cacheBytes('queries'),
      // The parse, and the page headers made from it (four links of the query: http/cached-reads.ts).
      sizeCalculation: (_parsed, k) => 256 + 12 * k.length,
    });
    let answer = keptQueries.get(key) as Readonly<z.output<S>> | undefined;
    if (!answer) {
      answer = Object.freeze(parseQuery(schema, query));
      keptQueries.set(key, answer);
    }
    return answer;
  };
  const rawPrefix = `${parser}#`;
  /**
   * The same answer for a request, looked up first by its query string as sent (`raw`): a string
   * seen before costs one look-up instead of Koa's parse of it and the canonical key. A string is
   * kept only when it names the schema's parameters alone, so junk makes no entry here either.
   */
  const ofRequest = (raw: string, query: () => Record<string, unknown>): Readonly<z.output<S>> => {
    const keep = raw.length <= MAX_KEPT_RAW;
    const kept = keep ? (keptQueries?.get(rawPrefix + raw) as Readonly<z.output<S>> | undefined) : undefined;
    if (kept) return kept;
    const parsed = query();
    const answer = parse(parsed);
    if (keep && Object.keys(parsed).every((name) => known.has(name)))
      keptQueries?.set(rawPrefix + raw, answer);
    return answer;
  };
  return Object.assign(parse, { ofRequest });
}

/**
 * Parses the route's path parameters, query and JSON body, in that order (the first part that
 * fails answers the 400), and puts the results in `ctx.state.input`, typed for the handlers
 * after it. The schemas also document the route (http/openapi.ts).
 */
export function validate<S extends InputSchemas>(schemas: S): Middleware<AppState & { input: Input<S> }> {
  const middleware: Middleware<AppState & { input: Input<S> }> = async (ctx, next) => {
    const input: Record<string, unknown> = { ...(ctx.state.input as object | undefined) };
    // The router puts the path parameters on the context; Koa's own typings do not know them.
    const { params = {} } = ctx as unknown as { params?: Record<string, string> };
    if (schemas.params) input.params = parseParams(schemas.params, params);
    if (schemas.query) input.query = parseQuery(schemas.query, ctx.query);
    if (schemas.body) input.body = parseBody(schemas.body, ctx.request.body);
    ctx.state.input = input as Input<S>;
    await next();
  };
  return documented(middleware, {
    request: schemas,
    errors: schemas.body ? [400, 413, 415] : [400],
  });
}

/**
 * A path made of one id (`/parts/:id`, `/order/:id`, …). zod-to-openapi writes the contract's
 * case-insensitive pattern with its `/i` flag appended, so the documented pattern is spelled out.
 */
export const idParams = (what: string) =>
  z.object({
    id: objectIdSchema.meta({ description: `The ${what}'s id.`, pattern: '^[0-9a-fA-F]{24}$' }),
  });
