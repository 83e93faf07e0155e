import { bodyParser } from '@koa/bodyparser';
import type { Middleware, ParameterizedContext } from 'koa';
import { AppError } from '../lib/app-error';
import type { AppState } from './context';

const WITH_BODY = ['POST', 'PUT', 'PATCH', 'DELETE'];

const hasBody = (ctx: ParameterizedContext<AppState>) =>
  Number(ctx.get('content-length') || 0) > 0 || ctx.get('transfer-encoding') !== '';

/** The parser's refusals (raw-body and co-body errors) in our error shape. */
function refusal(limit: number) {
  return (err: Error & { type?: string; status?: number }, ctx: { req: { resume(): void } }): never => {
    // Read what is left so the client gets our answer instead of a reset connection.
    ctx.req.resume();
    if (err.type === 'entity.too.large') {
      throw new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than the ${limit}-byte limit.`);
    }
    if (err instanceof SyntaxError) throw AppError.badRequest(`The body is not valid JSON: ${err.message}`);
    if (err.status === 415) throw new AppError('UNSUPPORTED_MEDIA_TYPE', err.message);
    throw AppError.badRequest(`Could not read the request body: ${err.message}`);
  };
}

/**
 * JSON bodies through @koa/bodyparser: size-limited (413), JSON only (415), any JSON value (a
 * string or an array is the schema's 400, not the parser's). The parsed body is in
 * `ctx.request.body`, `undefined` when none was sent. Paths in `rawPaths` get their exact bytes
 * in `ctx.state.rawBody` instead, whatever the content type, with their own limit: Stripe signs
 * the bytes it sent. Paths in `ownPaths` are passed by unread: their route reads the body itself,
 * after checking the caller (http/csv-body.ts).
 */
export function jsonBody({
  limit,
  rawPaths,
  ownPaths = [],
}: {
  limit: number;
  rawPaths: Record<string, number>;
  /** Routes that read their own body from the request stream (a photo, a CSV file): left alone here. */
  ownPaths?: readonly string[];
}): Middleware<AppState> {
  const parseJson = bodyParser({
    enableTypes: ['json'],
    // The content type was checked below (415 otherwise), with `+json` types included.
    detectJSON: () => true,
    jsonStrict: false,
    jsonLimit: limit,
    parsedMethods: WITH_BODY,
    onError: refusal(limit),
  });
  const parseRaw = new Map(
    Object.entries(rawPaths).map(([path, rawLimit]) => [
      path,
      bodyParser({
        enableTypes: ['text'],
        extendTypes: { text: ['*/*'] },
        textLimit: rawLimit,
        // One character per byte, so Buffer.from(text, 'latin1') gives back the exact bytes.
        encoding: 'latin1',
        parsedMethods: WITH_BODY,
        onError: refusal(rawLimit),
      }),
    ]),
  );
  return async (ctx, next) => {
    if (!WITH_BODY.includes(ctx.method) || !hasBody(ctx) || ownPaths.includes(ctx.path)) return next();
    const parseRawBody = parseRaw.get(ctx.path);
    if (parseRawBody) {
      return parseRawBody(ctx, async () => {
        if (ctx.request.rawBody !== undefined) ctx.state.rawBody = Buffer.from(ctx.request.rawBody, 'latin1');
        await next();
      });
    }
    if (!ctx.is('application/json', '+json')) {
      throw new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Send the body as JSON (Content-Type: application/json), not ${ctx.get('content-type') || 'no content type'}.`,
      );
    }
    return parseJson(ctx, async () => {
      // A chunked request with no bytes in it: no body, as for one without any.
      if (ctx.request.rawBody === '') ctx.request.body = undefined;
      await next();
    });
  };
}
