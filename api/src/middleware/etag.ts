import { createHash } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../context';

/**
 * Strong ETag over the JSON answer; a matching If-None-Match gets 304 with no body. Used on the
 * public catalogue reads, which are the hot, cacheable ones.
 */
export function etag(): Middleware<AppState> {
  return async (ctx, next) => {
    await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || ctx.status !== 200 || ctx.body === undefined)
      return;
    const json = JSON.stringify(ctx.body);
    const tag = `"${createHash('sha1').update(json).digest('base64url')}"`;
    ctx.set('ETag', tag);
    ctx.set('Cache-Control', 'no-cache');
    const inm = ctx.get('if-none-match');
    if (inm && inm.split(',').some((t) => t.trim() === tag || t.trim() === `W/${tag}` || t.trim() === '*')) {
      ctx.status = 304;
      ctx.body = null;
      return;
    }
    ctx.type = 'application/json';
    ctx.body = json;
  };
}
