import { LRUCache } from 'lru-cache';
import type { Middleware } from 'koa';
import type { CachedJson } from '../lib/catalog-cache';
import { pageHeaders } from '../lib/paging';
import type { AppContext, AppState } from './context';
import { sendTaggedJson } from './etag';

/** A cached answer, and for a page of a list its page and page size (for X-Total-Count and Link). */
export interface CachedAnswer {
  entry: CachedJson;
  page?: { page: number; limit: number };
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
  /** Page headers by request URL, reused while the URL gets the same cached answer. */
  private readonly headers = new LRUCache<string, { entry: CachedJson; values: Record<string, string> }>({
    max: 1000,
  });

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

  middleware(): Middleware<AppState> {
    return async (ctx, next) => {
      const hit = this.answerOf(ctx);
      if (!hit) return next();
      const { read, answer } = hit;
      await read.count?.(ctx);
      if (answer.page) {
        let kept = this.headers.get(ctx.url);
        if (kept?.entry !== answer.entry) {
          const { page, limit } = answer.page;
          kept = {
            entry: answer.entry,
            values: pageHeaders(ctx.path, ctx.querystring, answer.entry.total, page, limit),
          };
          this.headers.set(ctx.url, kept);
        }
        ctx.set(kept.values);
      }
      sendTaggedJson(ctx, answer.entry);
    };
  }
}
