import type { Middleware } from 'koa';
import type { AppState } from '../context';
import { AppError } from '../errors';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Reads the request body up to `limit` bytes; stops reading and rejects beyond it. */
function readRaw(ctx: Parameters<Middleware<AppState>>[0], limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(
      new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the ${limit}-byte limit.`),
    );
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const req = ctx.req;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      if (err) {
        // Drain what is left so the client gets our answer instead of a reset connection.
        req.resume();
        reject(err);
      } else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        finish(new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the ${limit}-byte limit.`));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish();
    const onError = (err: Error) =>
      finish(AppError.badRequest(`Could not read the request body: ${err.message}`));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/**
 * Our JSON body parser: size-limited, JSON only. Routes listed in `rawPaths` get the raw bytes
 * untouched in `ctx.state.rawBody` (Stripe signs the exact bytes it sent).
 */
export function jsonBody({
  limit,
  rawPaths,
}: {
  limit: number;
  rawPaths: Record<string, number>;
}): Middleware<AppState> {
  return async (ctx, next) => {
    if (!WITH_BODY.has(ctx.method)) return next();
    const rawLimit = rawPaths[ctx.path];
    const hasBody = Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';
    if (!hasBody) return next();
    if (rawLimit !== undefined) {
      ctx.state.rawBody = await readRaw(ctx, rawLimit);
      return next();
    }
    if (!ctx.is('application/json', '+json')) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the body as JSON (Content-Type: application/json), not ${ctx.get('content-type') || 'no content type'}.`,
      );
    }
    const raw = await readRaw(ctx, limit);
    if (raw.length === 0) return next();
    try {
      ctx.state.body = JSON.parse(raw.toString('utf8')) as unknown;
    } catch (err) {
      throw AppError.badRequest(`The body is not valid JSON: ${(err as Error).message}`);
    }
    return next();
  };
}
