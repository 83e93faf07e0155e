import type { HostedImage } from '@motoparts/contracts';
import { imageFetchTestHosts, type Env } from '../lib/env';
import { AppError } from '../lib/app-error';
import { fetchOutsideImage, refused } from './fetcher';
import { ImageModel } from './model';
import { imageQueue, processImage, THUMB_SIZE, type ProcessedImage } from './process';

/** Where the API serves a hosted file: `/uploads/<id>.webp`, `/uploads/<id>-400.webp`. */
export const UPLOADS_PATH = '/uploads/';
const FILE_NAME = /^([0-9a-f]{32})(-400)?\.webp$/;
const HOSTED_PATH = /^\/uploads\/[0-9a-f]{32}(?:-400)?\.webp$/;

export const hostedUrl = (id: string): string => `${UPLOADS_PATH}${id}.webp`;
export const thumbUrl = (id: string): string => `${UPLOADS_PATH}${id}-${THUMB_SIZE}.webp`;

/** The stored document's `_id` for a file name in /uploads/, or undefined when it cannot be ours. */
export function fileIdOf(fileName: string): string | undefined {
  const m = FILE_NAME.exec(fileName);
  return m ? `${m[1]}${m[2] ?? ''}` : undefined;
}

/** A duplicate key: the same content was stored before (content addressing). */
const isDuplicate = (err: unknown) => (err as { code?: unknown }).code === 11000;

async function insertOnce(_id: string, file: ProcessedImage['full']): Promise<void> {
  try {
    await ImageModel.create({
      _id,
      data: file.data,
      width: file.width,
      height: file.height,
      createdAt: new Date(),
    });
  } catch (err) {
    if (!isDuplicate(err)) throw err;
  }
}

/**
 * Stores a processed photo, the small file first, so a full-size file that exists always has its
 * small one. The same photo stored again writes nothing new and answers the same URLs.
 */
async function store(image: ProcessedImage): Promise<HostedImage> {
  await insertOnce(`${image.id}-${THUMB_SIZE}`, image.thumb);
  await insertOnce(image.id, image.full);
  return {
    url: hostedUrl(image.id),
    thumbUrl: thumbUrl(image.id),
    width: image.full.width,
    height: image.full.height,
  };
}

/** Takes one of the photo queue's places for the whole of `work` (503 when the queue is full). */
export async function withImagePlace<T>(work: () => Promise<T>): Promise<T> {
  const place = imageQueue.admit();
  try {
    return await work();
  } finally {
    place.release();
  }
}

/** Sniffs, decodes and re-encodes the bytes, and stores them: what POST /images answers. */
export async function hostImage(bytes: Buffer): Promise<HostedImage> {
  return store(await processImage(bytes));
}

/** One stored file, or undefined. */
export async function readHostedFile(id: string): Promise<{ data: Buffer } | undefined> {
  const doc = await ImageModel.collection.findOne<{ data: { buffer: Uint8Array } }>(
    { _id: id as never },
    { projection: { data: 1 } },
  );
  if (!doc) return undefined;
  // The driver's Binary: its `buffer` holds the bytes (viewed, not copied).
  const bytes = doc.data.buffer;
  return { data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Whether an address is one of our hosted files, absolute (any host) or as the path itself. */
async function ourHostedPath(img: string): Promise<string | undefined> {
  let path: string;
  try {
    path = new URL(img, 'http://relative.invalid').pathname;
  } catch {
    return undefined;
  }
  if (!HOSTED_PATH.test(path)) return undefined;
  const id = fileIdOf(path.slice(UPLOADS_PATH.length));
  return id && (await ImageModel.exists({ _id: id })) ? path : undefined;
}

export const isOutsideUrl = (img: string): boolean => /^https?:\/\//i.test(img);

/**
 * The `img` to store for an address given to the API: the site's own paths (`/images/…`,
 * `/uploads/…`) as they are; a link to one of our hosted files as its path; any other http(s)
 * address fetched once (fetcher.ts rules), re-encoded and hosted here, answering its path. A
 * failure is a 400 saying why.
 */
export async function hostedImg(env: Env, img: string): Promise<string> {
  if (!isOutsideUrl(img)) return img;
  const ours = await ourHostedPath(img);
  if (ours) return ours;
  return withImagePlace(async () => {
    const bytes = await fetchOutsideImage(img, {
      timeoutMs: env.IMAGE_FETCH_TIMEOUT_MS,
      testHosts: imageFetchTestHosts(env),
    });
    try {
      return (await hostImage(bytes)).url;
    } catch (err) {
      // What the address serves is not a photo: the caller's input is wrong (400), not its body.
      if (err instanceof AppError && err.code === 'UNSUPPORTED_MEDIA_TYPE') {
        throw refused(img, 'what it serves is not a JPEG, PNG or WebP photo');
      }
      throw err;
    }
  });
}
