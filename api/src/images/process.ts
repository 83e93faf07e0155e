import { createHash } from 'node:crypto';
import type { Sharp, SharpOptions } from 'sharp';
import { AppError } from '../lib/app-error';

/** The largest photo accepted, uploaded or fetched: bytes past it are never read. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
/** The longest side of the hosted photo and of its small version (cards, lists). */
export const FULL_SIZE = 1600;
export const THUMB_SIZE = 400;
/**
 * Decoding stops above this many pixels (a 50 MP phone photo passes): a small file that claims a
 * huge canvas (a "decompression bomb") is refused before libvips allocates it.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

type SharpFactory = (input?: Buffer, options?: SharpOptions) => Sharp;
let loaded: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips) is loaded at the first photo, not at start: an API process that never handles
 * one does not carry the native library's memory. One worker thread and no operation cache: with
 * one image at a time (below), memory is bounded by one decode, and nothing lingers after it.
 */
function sharpOf(): Promise<SharpFactory> {
  loaded ??= import('sharp').then((module) => {
    const sharp = module.default;
    sharp.concurrency(1);
    sharp.cache(false);
    return sharp;
  });
  return loaded;
}

export type SourceFormat = 'jpeg' | 'png' | 'webp';

/**
 * The format the bytes are, by their magic numbers; the Content-Type a client or server sends is
 * never trusted. Three fixed signatures, so a detection library would add nothing here.
 */
export function sniffFormat(bytes: Uint8Array): SourceFormat | undefined {
  const at = (offset: number, sig: number[]) => sig.every((b, i) => bytes[offset + i] === b);
  if (at(0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (at(0, [0x52, 0x49, 0x46, 0x46]) && at(8, [0x57, 0x45, 0x42, 0x50])) return 'webp';
  return undefined;
}

export interface ProcessedImage {
  /** Content address: the first 128 bits of the SHA-256 of the full-size WebP, in hex. */
  id: string;
  full: { data: Buffer; width: number; height: number };
  thumb: { data: Buffer; width: number; height: number };
}

/** Refused bytes: not one of the three formats (415), or not decodable as the one they claim (415). */
export const unsupported = (why: string): AppError =>
  new AppError(
    'UNSUPPORTED_MEDIA_TYPE',
    `${why} Send a JPEG, PNG or WebP photo (at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB).`,
  );

/**
 * Runs one job at a time and lets at most `maxWaiting` more wait; beyond that the caller is told
 * to come back (503), so a burst of uploads holds at most that many bodies in memory.
 */
export class OneAtATime {
  private running = Promise.resolve();
  private admitted = 0;

  constructor(private readonly maxWaiting: number) {}

  /** Takes a place (throws 503 when the queue is full); `release` must be called once. */
  admit(): { release: () => void } {
    if (this.admitted > this.maxWaiting) {
      const err = new AppError(
        'SERVICE_UNAVAILABLE',
        'Too many photos are being processed; try again shortly.',
      );
      err.retryAfterSeconds = 5;
      throw err;
    }
    this.admitted += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.admitted -= 1;
      },
    };
  }

  run<T>(job: () => Promise<T>): Promise<T> {
    const result = this.running.then(job);
    this.running = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

/** Every photo the process decodes goes through this one queue (uploads and fetched URLs alike). */
export const imageQueue = new OneAtATime(3);

const encode = (image: Sharp) =>
  image
    .webp({ quality: 82, effort: 4 })
    .toBuffer({ resolveWithObject: true })
    .then(({ data, info }) => ({ data, width: info.width, height: info.height }));

/**
 * The input is decoded once, to at most FULL_SIZE px (`rotate()` applies the EXIF orientation
 * first; only the first frame of an animation is read), and both files are encoded from those
 * pixels. sharp writes no metadata (EXIF, ICC, XMP) unless asked to.
 */
async function transcode(input: Buffer): Promise<Pick<ProcessedImage, 'full' | 'thumb'>> {
  const sharp = await sharpOf();
  const { data: pixels, info } = await sharp(input, {
    limitInputPixels: MAX_INPUT_PIXELS,
    failOn: 'error',
    sequentialRead: true,
  })
    .rotate()
    .resize({ width: FULL_SIZE, height: FULL_SIZE, fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const full = await encode(sharp(pixels, raw));
  const thumb = await encode(
    sharp(pixels, raw).resize({
      width: THUMB_SIZE,
      height: THUMB_SIZE,
      fit: 'inside',
      withoutEnlargement: true,
    }),
  );
  return { full, thumb };
}

/**
 * Decodes the bytes and writes them again as WebP, at most FULL_SIZE px and THUMB_SIZE px on the
 * longest side, without metadata. Runs in the one-at-a-time queue; the caller holds a place.
 */
export function processImage(bytes: Buffer): Promise<ProcessedImage> {
  const format = sniffFormat(bytes);
  if (!format) return Promise.reject(unsupported('This is not a photo.'));
  return imageQueue.run(async () => {
    let files: Pick<ProcessedImage, 'full' | 'thumb'>;
    try {
      const sharp = await sharpOf();
      const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      if (meta.format !== format) throw new Error(`the bytes are ${meta.format}, not ${format}`);
      files = await transcode(bytes);
    } catch (err) {
      const message = (err as Error).message;
      if (/pixel limit/i.test(message)) {
        throw unsupported(`The photo is larger than ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`);
      }
      throw unsupported(`The photo could not be read (${format}).`);
    }
    const id = createHash('sha256').update(files.full.data).digest('hex').slice(0, 32);
    return { id, ...files };
  });
}
