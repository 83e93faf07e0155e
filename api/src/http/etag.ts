import { z } from 'zod';
import { acceptsGzip, compressible, gzippedBody } from './compress';
import type { AppContext } from './context';

/** A JSON answer serialized once, with its strong ETag. */
export interface TaggedJson {
  readonly body: Buffer;
  readonly etag: string;
  /** Headers of this answer besides these (a list's `X-Facets`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** Whether an If-None-Match header names `tag` (weakly or not) or any copy (`*`). */
export function matchesEtag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const candidate = t.trim();
    return candidate === tag || candidate === `W/${tag}` || candidate === '*';
  });
}

/**
 * Sends a precomputed JSON answer with its strong ETag; a matching If-None-Match gets 304 with no
 * body. Used on the public catalogue reads, which are the hot, cacheable ones, and on the API
 * document. `no-cache` = reuse only after revalidating.
 */
export function sendTaggedJson(ctx: AppContext, entry: TaggedJson, cacheControl = 'no-cache'): void {
  if (entry.headers) ctx.set(entry.headers);
  ctx.set('ETag', entry.etag);
  ctx.set('Cache-Control', cacheControl);
  if (matchesEtag(ctx.get('if-none-match'), entry.etag)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  // Set as is: `ctx.type` would look the type up on every one of these hot answers.
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  if (compressible(entry.body.length)) {
    // The answer's gzipped bytes, made once (http/compress.ts); koa-compress leaves them alone
    // (and has said Vary: Accept-Encoding already).
    if (acceptsGzip(ctx)) {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = gzippedBody(entry.body);
      return;
    }
  }
  ctx.body = entry.body;
}

/** The request header of a conditional read (documentation of the routes that answer 304). */
export const conditionalReadHeaders = z.object({
  'If-None-Match': z.string().optional().meta({ description: 'The ETag of the copy the client has.' }),
});
