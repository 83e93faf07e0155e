import type { AppContext } from '../context';
import type { CachedJson } from '../lib/catalog-cache';

/**
 * Sends a cached JSON answer with its strong ETag; a matching If-None-Match gets 304 with no
 * body. Used on the public catalogue reads, which are the hot, cacheable ones.
 */
export function sendTaggedJson(ctx: AppContext, entry: CachedJson): void {
  ctx.set('ETag', entry.etag);
  ctx.set('Cache-Control', 'no-cache');
  const inm = ctx.get('if-none-match');
  const tag = entry.etag;
  if (inm && inm.split(',').some((t) => t.trim() === tag || t.trim() === `W/${tag}` || t.trim() === '*')) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  ctx.type = 'application/json';
  ctx.body = entry.body;
}
