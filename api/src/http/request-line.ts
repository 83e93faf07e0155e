import type { Middleware } from 'koa';
import { AppError } from '../lib/app-error';
import type { AppState } from './context';

/**
 * The longest path and query the API reads (4 KB). Its own URLs are far shorter (a search is at
 * most 100 characters); a longer one is refused before any of it is parsed, matched or kept.
 */
export const MAX_URL_LENGTH = 4096;

/** Whether a request's path and query are longer than the API reads. */
export const isTooLong = (url: string | undefined): boolean => (url?.length ?? 0) > MAX_URL_LENGTH;

/** Answers 414 to a request line over MAX_URL_LENGTH, ahead of every route. */
export function refuseLongUrls(): Middleware<AppState> {
  return async (ctx, next) => {
    if (isTooLong(ctx.req.url)) {
      throw new AppError('URI_TOO_LONG', `The URL is too long: at most ${MAX_URL_LENGTH} characters.`);
    }
    await next();
  };
}
