import type { Middleware } from 'koa';
import getRawBody from 'raw-body';
import { AppError } from '../lib/app-error';
import type { AppState } from './context';
import { documented } from './route-docs';

/**
 * A `text/csv` body, read by the route that takes it, after its caller was checked (the JSON
 * body middleware passes these paths by: http/body.ts), so only an admin can make the API read
 * up to `limit` bytes. A declared length over the limit is refused before a byte is read, and a
 * chunked body is cut off at the limit (raw-body). The bytes must be UTF-8 (a byte-order mark is
 * dropped): a file saved in another encoding is a 400, not names with broken letters.
 */
export function csvBody(limit: number): Middleware<AppState & { csvText: string }> {
  return documented<Middleware<AppState & { csvText: string }>>(
    async (ctx, next) => {
      // The header itself, not `ctx.is`, which answers nothing for an empty body (that is a 400 below).
      const type = ctx.get('content-type').split(';', 1)[0]?.trim().toLowerCase();
      if (type !== 'text/csv') {
        ctx.req.resume();
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Send the file as CSV (Content-Type: text/csv), not ${ctx.get('content-type') || 'no content type'}.`,
        );
      }
      const tooLarge = () =>
        new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${Math.round(limit / 1024 / 1024)} MB.`);
      const declared = Number(ctx.get('content-length') || 0);
      if (declared > limit) {
        ctx.req.resume();
        throw tooLarge();
      }
      let bytes: Buffer;
      try {
        bytes = await getRawBody(ctx.req, { limit, length: ctx.get('content-length') || undefined });
      } catch (err) {
        ctx.req.resume();
        if ((err as { type?: string }).type === 'entity.too.large') throw tooLarge();
        throw AppError.badRequest(`Could not read the file: ${(err as Error).message}`);
      }
      try {
        ctx.state.csvText = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
      } catch {
        throw AppError.badRequest('The file is not UTF-8 text. Save it as "CSV UTF-8" and try again.');
      }
      await next();
    },
    { errors: [400, 413, 415] },
  );
}
