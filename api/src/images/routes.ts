import { hostedImageSchema, UPLOAD_IMAGE_TYPES } from '@motoparts/contracts';
import getRawBody from 'raw-body';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps';
import { callerOf, signedIn } from '../http/auth';
import { conditionalReadHeaders, matchesEtag } from '../http/etag';
import type { ApiRoutes } from '../http/openapi';
import { rateLimited } from '../http/rate-limit';
import { validate } from '../http/validate';
import { AppError } from '../lib/app-error';
import { MAX_IMAGE_BYTES } from './process';
import { fileIdOf, hostImage, readHostedFile, withImagePlace } from './service';

/**
 * How long an upload's body may take to arrive once it holds a place in the photo queue: a client
 * sending slowly would otherwise keep the place from everyone else.
 */
const UPLOAD_READ_MS = 30_000;

/** A hosted file never changes (its name is its content's hash): cached for a year, unchecked. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const uploadParams = z.object({
  file: z.string().max(64).meta({ description: '`<id>.webp` or `<id>-400.webp`.' }),
});

export function imageRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { limits } = deps;
  const section = routes.section('images');

  section.post(
    '/images',
    {
      operationId: 'uploadImage',
      summary: 'Host a photo',
      description:
        'The body is the photo itself (JPEG, PNG or WebP, at most 5 MB; its bytes are checked, not only the ' +
        'Content-Type). It is decoded and written again as WebP without metadata, at most 1600 px on its ' +
        'longest side plus a 400 px version, and served from `/uploads/`. The same photo uploaded twice ' +
        'answers the same URLs.',
      rawBody: { mediaType: [...UPLOAD_IMAGE_TYPES], description: 'The photo’s bytes.' },
      ok: { status: 201, description: 'Where the photo is served.', body: hostedImageSchema },
      errors: [400, 413, 415],
    },
    signedIn(deps),
    rateLimited(limits, 'images', (state) => callerOf(state).uid),
    async (ctx) => {
      const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
      if (!(UPLOAD_IMAGE_TYPES as readonly string[]).includes(type)) {
        ctx.set('Connection', 'close');
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          `Send the photo itself as image/jpeg, image/png or image/webp, not ${type || 'no content type'}.`,
        );
      }
      ctx.body = await withImagePlace(async () => {
        let bytes: Buffer;
        const slow = setTimeout(
          () => ctx.req.destroy(new Error(`the photo did not arrive within ${UPLOAD_READ_MS / 1000} s`)),
          UPLOAD_READ_MS,
        );
        try {
          // A declared length over the limit is refused before a byte is read; an undeclared one
          // is read only up to the limit, then the rest is left unread and the connection closed.
          bytes = await getRawBody(ctx.req, {
            length: ctx.get('content-length') || undefined,
            limit: MAX_IMAGE_BYTES,
          });
        } catch (err) {
          ctx.set('Connection', 'close');
          if ((err as { type?: string }).type === 'entity.too.large') {
            throw new AppError(
              'PAYLOAD_TOO_LARGE',
              `The photo is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`,
            );
          }
          throw AppError.badRequest(`Could not read the photo: ${(err as Error).message}`);
        } finally {
          clearTimeout(slow);
        }
        return hostImage(bytes);
      });
      ctx.status = 201;
    },
  );

  section.get(
    '/uploads/:file',
    {
      operationId: 'getHostedImage',
      summary: 'A hosted photo',
      description: 'Never changes: cached for a year (`immutable`). Unknown names are a 404.',
      headers: conditionalReadHeaders,
      ok: {
        description: 'The WebP file.',
        mediaType: 'image/webp',
        headers: ['ETag', 'Cache-Control', 'X-Content-Type-Options'],
        revalidates: true,
      },
      errors: [404],
    },
    validate({ params: uploadParams }),
    async (ctx) => {
      const id = fileIdOf(ctx.state.input.params.file);
      const etag = `"${id}"`;
      const file = id && (await readHostedFile(id));
      if (!id || !file) throw AppError.notFound('Photo');
      ctx.set('ETag', etag);
      ctx.set('Cache-Control', IMMUTABLE);
      ctx.set('X-Content-Type-Options', 'nosniff');
      // Shown by pages of the shop's other origins.
      ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
      if (matchesEtag(ctx.get('if-none-match'), etag)) {
        ctx.status = 304;
        ctx.body = null;
        return;
      }
      ctx.set('Content-Type', 'image/webp');
      ctx.body = file.data;
    },
  );
}
