import { randomUUID } from 'node:crypto';
import type { Model } from 'mongoose';
import { AppError } from '../lib/app-error';
import type { Env } from '../lib/env';
import type { Logger } from '../lib/logger';
import { PartModel } from '../parts/model';
import { ReviewModel } from '../reviews/model';
import { hostedImg } from './service';

/** How long one process's claim on a document lasts: longer than a fetch and its processing. */
const CLAIM_MS = 2 * 60_000;

/** What one pass did. */
export interface RehostPass {
  rehosted: number;
  failed: number;
}

// Both collections have `img` and the rehost fields; the job reads and writes nothing else.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- two different document types
type AnyModel = Model<any>;

const COLLECTIONS: readonly (readonly [string, AnyModel])[] = [
  ['part', PartModel],
  ['review', ReviewModel],
];

/** Documents whose photo is still an outside URL, not failed and not claimed by a live claim. */
const pendingFilter = (now: Date) => ({
  img: { $regex: '^https?://', $options: 'i' },
  imgFailed: { $exists: false },
  $or: [{ imgClaimUntil: { $exists: false } }, { imgClaimUntil: { $lt: now } }],
});

/**
 * One pass: up to `batch` parts, then up to `batch` reviews, whose `img` is an outside URL are
 * fetched and hosted (images/service.ts, the rules the API applies to an address it is given).
 * Each document is claimed first with a conditional update (`imgClaimUntil`), so with several API
 * processes each photo is fetched by one of them. The new path is written only if `img` is still
 * the address that was fetched (an edit meanwhile wins). An address that cannot be used (refused,
 * unreachable, not a photo) is marked `imgFailed` with the reason and not tried again until `img`
 * changes; a busy photo queue or a database error leaves it for the next pass.
 */
export async function rehostPass(env: Env, log: Logger, batch = env.IMAGE_REHOST_BATCH): Promise<RehostPass> {
  const result: RehostPass = { rehosted: 0, failed: 0 };
  for (const [kind, model] of COLLECTIONS) {
    const now = new Date();
    const pending = await model
      .find(pendingFilter(now), { img: 1 })
      .limit(batch)
      .lean<{ _id: unknown; img: string }[]>();
    for (const doc of pending) {
      const claimed = await model.updateOne(
        { ...pendingFilter(now), _id: doc._id, img: doc.img },
        { $set: { imgClaimUntil: new Date(Date.now() + CLAIM_MS) } },
      );
      if (claimed.modifiedCount !== 1) continue; // another process has it, or it changed
      try {
        const hosted = await hostedImg(env, doc.img);
        await model.updateOne(
          { _id: doc._id, img: doc.img },
          { $set: { img: hosted }, $unset: { imgClaimUntil: 1 } },
        );
        result.rehosted += 1;
      } catch (err) {
        const permanent = err instanceof AppError && err.status >= 400 && err.status < 500;
        if (permanent) {
          await model.updateOne(
            { _id: doc._id, img: doc.img },
            { $set: { imgFailed: err.message }, $unset: { imgClaimUntil: 1 } },
          );
          result.failed += 1;
          log.warn(
            { [`${kind}Id`]: String(doc._id), img: doc.img, reason: err.message },
            'photo not re-hosted',
          );
        } else {
          await model
            .updateOne({ _id: doc._id, img: doc.img }, { $unset: { imgClaimUntil: 1 } })
            .catch(() => undefined);
          log.debug(
            { [`${kind}Id`]: String(doc._id), err: (err as Error).message },
            'photo re-hosting postponed',
          );
        }
      }
    }
  }
  if (result.rehosted + result.failed > 0) log.info(result, 'photos re-hosted');
  return result;
}

export interface RehostJob {
  /** Runs a pass now (after the running one, if any). */
  runNow(): Promise<RehostPass>;
  /** Stops the timer and waits for a running pass. */
  stop(): Promise<void>;
}

/**
 * Every IMAGE_REHOST_INTERVAL_MS (and once at start) a pass of `rehostPass`; while a pass finds a
 * full batch the next one follows at once, so a backlog (an import, the first start after the
 * upgrade) is worked through a batch at a time without waiting for the timer. Passes never overlap.
 */
export function startImageRehosting(env: Env, log: Logger): RehostJob {
  const instance = randomUUID().slice(0, 8);
  let running: Promise<RehostPass> = Promise.resolve({ rehosted: 0, failed: 0 });
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const pass = (): Promise<RehostPass> => {
    running = running
      .catch(() => undefined)
      .then(() => rehostPass(env, log))
      .catch((err: unknown) => {
        log.debug({ instance, err: (err as Error).message }, 'photo re-hosting pass failed');
        return { rehosted: 0, failed: 0 };
      });
    return running;
  };
  const schedule = (delay: number) => {
    if (stopped || env.IMAGE_REHOST_INTERVAL_MS === 0) return;
    timer = setTimeout(() => {
      void pass().then((done) => {
        const more = done.rehosted + done.failed >= env.IMAGE_REHOST_BATCH;
        schedule(more ? 0 : env.IMAGE_REHOST_INTERVAL_MS);
      });
    }, delay);
    timer.unref();
  };
  schedule(0);
  return {
    runNow: pass,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running.catch(() => undefined);
    },
  };
}
