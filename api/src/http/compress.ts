import { constants, gzipSync } from 'node:zlib';
import compress from 'koa-compress';
import type { Middleware } from 'koa';
import type { AppContext, AppState } from './context';

/**
 * JSON answers are gzipped when the client accepts it and the body is at least this many bytes:
 * below it the gzip header and the CPU cost more than the bytes saved (a part's own answer, an
 * error, a small page stay as they are).
 */
export const COMPRESS_THRESHOLD = 1024;

/**
 * koa-compress for what the routes answer: gzip only (brotli at a useful quality costs several
 * times gzip's CPU per answer, and every browser takes gzip), above the threshold, `Vary:
 * Accept-Encoding` set. The catalogue's cached answers bring their own gzipped bytes
 * (`gzippedBody`) with `Content-Encoding` set, which koa-compress leaves alone.
 */
export function compression(): Middleware<AppState> {
  return compress({
    threshold: COMPRESS_THRESHOLD,
    gzip: { level: constants.Z_DEFAULT_COMPRESSION },
    deflate: false,
    br: false,
  });
}

/**
 * The gzipped bytes of a cached answer's body, made the first time a client that accepts gzip asks
 * for it and kept as long as the answer is (a WeakMap on the immutable body): a hot page is
 * compressed once, not per request. Gzip makes JSON about a fifth of its size, so this adds at
 * most that much to what the catalogue cache holds.
 */
const gzipped = new WeakMap<Buffer, Buffer>();
export function gzippedBody(body: Buffer): Buffer {
  let gz = gzipped.get(body);
  if (!gz) {
    gz = gzipSync(body);
    gzipped.set(body, gz);
  }
  return gz;
}

/** Whether a body of this length is sent gzipped to a client that accepts gzip. */
export const compressible = (length: number): boolean => length >= COMPRESS_THRESHOLD;

/**
 * What Koa's negotiation (`accepts`/negotiator) answered for each recent Accept-Encoding value:
 * browsers send a handful of values, and the cached reads, whose whole cost is tens of
 * microseconds, need not build a negotiator and parse the header for every answer. Short values
 * only, and at most 64 of them.
 */
const gzipByHeader = new Map<string, boolean>();

/**
 * Whether the request accepts gzip (Koa's negotiation: `gzip;q=0` and `identity` only say no; no
 * header, identity). Asked only for bodies above the threshold.
 */
export function acceptsGzip(ctx: AppContext): boolean {
  const header = ctx.req.headers['accept-encoding'];
  if (!header) return false;
  let accepted = gzipByHeader.get(header);
  if (accepted === undefined) {
    accepted = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (header.length <= 256) {
      if (gzipByHeader.size >= 64) gzipByHeader.clear();
      gzipByHeader.set(header, accepted);
    }
  }
  return accepted;
}
