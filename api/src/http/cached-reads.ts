import { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Middleware } from 'koa';
import type { CachedJson } from '../lib/catalog-cache';
import { lifecycle } from '../lib/lifecycle';
import type { Logger } from '../lib/logger';
import { pageHeaders, type PageQuery } from '../lib/paging';
import { acceptsGzip, compressible, gzippedBody } from './compress';
import type { AppContext, AppState } from './context';
import { matchesEtag, sendTaggedJson } from './etag';
import { logRequest, requestIdOf } from './request-log';
import { isTooLong } from './request-line';

/** Koa's request listener (what `app.callback()` returns). */
export type Listener = ReturnType<Koa['callback']>;

/** What an answer sent before Koa's middleware needs from the app around it. */
export interface FrontDeps {
  logger: Logger;
  /** The CORS headers of a simple GET from `origin` (http/cors.ts). */
  corsHeaders: (origin: string | undefined) => Record<string, string>;
}

/** A limit's refusal of a request the front counted, for the Koa middleware to answer as usual. */
const refusals = new WeakMap<IncomingMessage, unknown>();

/** A cached answer, and for a page of a list its parsed query (for X-Total-Count and Link). */
export interface CachedAnswer {
  entry: CachedJson;
  page?: PageQuery;
}

export interface CachedRead {
  /**
   * This request's answer if it is cached now; undefined (or a throw, as for a query the route
   * refuses) sends the request on to its route. `id` is the path's last segment for `/…/:id`.
   */
  answer(ctx: AppContext, id: string): CachedAnswer | undefined;
  /** Counts the request against the route's abuse limit (throws its 429 when over). */
  count?(ctx: AppContext): Promise<void>;
}

/**
 * The hot public reads (catalogue pages, parts, review pages) answered from their cache before
 * the body parser, the router and the route's own middleware run: on a cached answer those cost
 * more than half of its time (bench/api/README.md). Only a hit is answered here, with the route's
 * headers and abuse limit; anything else (a miss, a query the route would refuse, HEAD) goes on
 * to the route, which stays the definition of the endpoint: its validation, documentation and
 * loading. Koa has no such per-route shortcut, and the router's matching is part of the cost.
 */
export class CachedReads {
  private readonly exact = new Map<string, CachedRead>();
  private readonly byPrefix = new Map<string, CachedRead>();
  /**
   * Page headers by parsed query, reused while the query gets the same cached answer. The parsed
   * queries are kept within the cache budget (http/validate.ts), and their headers go with them.
   */
  private readonly headers = new WeakMap<PageQuery, { entry: CachedJson; values: Record<string, string> }>();

  /** `path` is exact (`/parts`) or ends in one parameter (`/parts/:id`). */
  add(path: string, read: CachedRead): void {
    const param = /^(.*\/):\w+$/.exec(path);
    if (param?.[1]) this.byPrefix.set(param[1], read);
    else this.exact.set(path, read);
  }

  private find(path: string): { read: CachedRead; id: string } | undefined {
    const read = this.exact.get(path);
    if (read) return { read, id: '' };
    const slash = path.lastIndexOf('/');
    const byPrefix = slash > 0 ? this.byPrefix.get(path.slice(0, slash + 1)) : undefined;
    const id = path.slice(slash + 1);
    return byPrefix && id ? { read: byPrefix, id } : undefined;
  }

  private answerOf(ctx: AppContext): { read: CachedRead; answer: CachedAnswer } | undefined {
    if (ctx.method !== 'GET') return undefined;
    const found = this.find(ctx.path);
    if (!found) return undefined;
    try {
      const answer = found.read.answer(ctx, found.id);
      return answer && { read: found.read, answer };
    } catch {
      return undefined; // the route answers it (its 400)
    }
  }

  /** X-Total-Count and Link of a page, kept with its parsed query while it gets the same answer. */
  private pageHeadersOf(ctx: AppContext, answer: CachedAnswer): Record<string, string> | undefined {
    const query = answer.page;
    if (!query) return undefined;
    let kept = this.headers.get(query);
    if (kept?.entry !== answer.entry) {
      kept = { entry: answer.entry, values: pageHeaders(ctx.path, query, answer.entry.total) };
      this.headers.set(query, kept);
    }
    return kept.values;
  }

  /**
   * The same answers as the middleware below, sent before any of Koa's middleware runs: on a
   * cached read the middleware chain (request log, error handler, CORS, this shortcut), Koa's
   * response handling and one `setHeader` per header were a quarter to a half of the API's CPU
   * per answer (bench/api/README.md). A hit gets the request log's id and line, the CORS headers
   * and the route's headers, written at once; anything else (a miss, a refused query, HEAD, a
   * request while draining, an over-limit refusal) goes to `next`, Koa, which stays the
   * definition. The context is Koa's own (createContext, as Koa's handler makes it), so a read's
   * query, path and client address mean exactly what they mean to its route.
   */
  front(app: Koa<AppState>, deps: FrontDeps, next: Listener): Listener {
    return (req, res) => {
      // HTTP/2 requests (never made by app.listen) and everything but GET go the usual way.
      if (!(req instanceof IncomingMessage) || !(res instanceof ServerResponse)) return next(req, res);
      if (req.method !== 'GET' || lifecycle.draining || isTooLong(req.url)) return next(req, res);
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      if (!this.find(query < 0 ? url : url.slice(0, query))) return next(req, res);
      const startedNs = process.hrtime.bigint();
      const ctx = app.createContext<AppState>(req, res);
      const hit = this.answerOf(ctx);
      if (!hit) return next(req, res);
      if (!hit.read.count) {
        this.send(ctx, hit.answer, deps, startedNs);
        return Promise.resolve();
      }
      return hit.read.count(ctx).then(
        () => this.send(ctx, hit.answer, deps, startedNs),
        (err: unknown) => {
          refusals.set(req, err);
          return next(req, res);
        },
      );
    };
  }

  private send(ctx: AppContext, answer: CachedAnswer, deps: FrontDeps, startedNs: bigint): void {
    const { req, res } = ctx;
    const requestId = requestIdOf(req.headers['x-request-id']);
    const { entry } = answer;
    const headers: Record<string, string | number> = {
      'X-Request-Id': requestId,
      ...deps.corsHeaders(req.headers.origin),
      ...this.pageHeadersOf(ctx, answer),
      ...entry.headers,
      ETag: entry.etag,
      'Cache-Control': 'no-cache',
    };
    // As koa-compress says on every answer through Koa (after CORS's own Vary: Origin).
    headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : 'Accept-Encoding';
    const gzip = compressible(entry.body.length);
    let status = 200;
    if (matchesEtag(req.headers['if-none-match'], entry.etag)) {
      status = 304;
      res.writeHead(status, headers).end();
    } else {
      headers['Content-Type'] = 'application/json; charset=utf-8';
      // The gzipped bytes are made once per cached answer and kept with it (http/compress.ts).
      const body = gzip && acceptsGzip(ctx) ? gzippedBody(entry.body) : entry.body;
      if (body !== entry.body) headers['Content-Encoding'] = 'gzip';
      headers['Content-Length'] = body.length;
      res.writeHead(status, headers).end(body);
    }
    logRequest(deps.logger, () => deps.logger.child({ reqId: requestId }), {
      method: 'GET',
      url: ctx.url,
      status,
      startedNs,
    });
  }

  /** The shortcut inside Koa's middleware, for hits that did not come through `front`. */
  middleware(): Middleware<AppState> {
    return async (ctx, next) => {
      const refused = refusals.get(ctx.req);
      if (refused !== undefined) throw refused; // counted once already, by the front
      const hit = this.answerOf(ctx);
      if (!hit) return next();
      const { read, answer } = hit;
      await read.count?.(ctx);
      const pageValues = this.pageHeadersOf(ctx, answer);
      if (pageValues) ctx.set(pageValues);
      sendTaggedJson(ctx, answer.entry);
    };
  }
}
