import { oneCleanLine, type Review, type ReviewInput } from '@motoparts/contracts';
import type { Caller } from '../http/context';
import { AppError } from '../lib/app-error';
import { cacheBytes } from '../lib/cache-budget';
import { CatalogCache, type CachedJson } from '../lib/catalog-cache';
import { keptPageOf } from '../lib/paging';
import { ReviewModel, reviewWrites, type ReviewDoc } from './model';

/** Shown for an author who has no display name: their email is never published instead. */
export const ANONYMOUS_REVIEWER = 'MotoParts customer';

/**
 * The author's name as the public may see it: a display name is whatever its owner typed, so
 * one that holds an address (or is made of control characters) is not shown.
 */
export function publicName(name: string | null | undefined): string {
  const clean = oneCleanLine(name ?? '');
  return clean && !/\S@\S/.test(clean) ? clean : ANONYMOUS_REVIEWER;
}

export function toReview(doc: ReviewDoc): Review {
  return {
    _id: String(doc._id),
    name: publicName(doc.name),
    img: doc.img,
    review: doc.review,
    rating: doc.rating,
  };
}

export async function countReviews(): Promise<number> {
  return ReviewModel.countDocuments({});
}

export async function listReviews(page: number, limit: number): Promise<{ items: Review[]; total: number }> {
  const [docs, total] = await Promise.all([
    ReviewModel.find({})
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<ReviewDoc[]>(),
    countReviews(),
  ]);
  return { items: docs.map(toReview), total };
}

/** The review is always signed by the caller; a different email in the body is refused. */
export async function createReview(caller: Caller, input: ReviewInput): Promise<Review> {
  if (input.email !== undefined && input.email !== caller.email) {
    throw AppError.forbidden('You can only post a review as yourself.');
  }
  const doc = await ReviewModel.create({
    uid: caller.uid,
    email: caller.email,
    name: caller.name.trim().slice(0, 120),
    img: input.img,
    review: input.review,
    rating: input.rating,
  });
  return toReview(doc.toObject());
}

/** Moderation: removes one review (admins only; the route checks). */
export async function deleteReview(id: string): Promise<void> {
  const deleted = await ReviewModel.findOneAndDelete({ _id: id }).lean<ReviewDoc>();
  if (!deleted) throw AppError.notFound('Review');
}

/**
 * GET /review answers (body, ETag, total), cached per app like the catalogue's and dropped on
 * every write to the reviews collection.
 */
export class ReviewPages {
  private readonly cache: CatalogCache;

  /** `ttlMs` as CATALOG_CACHE_TTL_MS: 0 = off, Infinity = until invalidated. */
  constructor(ttlMs: number) {
    this.cache = new CatalogCache({ ttlMs, maxBytes: cacheBytes('reviewPages') });
    reviewWrites.subscribe((scope) => this.cache.invalidate(scope));
  }

  /** The page's answer if it is cached now; never loads. */
  peek(page: number, limit: number): CachedJson | undefined {
    const count = this.cache.peek('count');
    if (!count) return undefined;
    return this.cache.peek(`list:${keptPageOf(page, count.total, limit)}:${limit}`);
  }

  async page(page: number, limit: number): Promise<CachedJson> {
    // Pages past the end are all the same empty page: they share one cache entry (keyed by the
    // last page + 1), so random page numbers cannot each cost a database query.
    const { total } = await this.cache.get('count', async () => ({
      value: null,
      total: await countReviews(),
    }));
    const servedPage = keptPageOf(page, total, limit);
    return this.cache.get(`list:${servedPage}:${limit}`, async () => {
      const { items, total } = await listReviews(servedPage, limit);
      return { value: items, total };
    });
  }
}
