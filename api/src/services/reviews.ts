import type { Review, ReviewInput } from '@motoparts/contracts';
import type { Caller } from '../context';
import { AppError } from '../errors';
import { ReviewModel, type ReviewDoc } from '../models/review';

/** Shown for an author who has no display name: their email is never published instead. */
export const ANONYMOUS_REVIEWER = 'MotoParts customer';

export function toReview(doc: ReviewDoc): Review {
  return {
    _id: String(doc._id),
    name: doc.name || ANONYMOUS_REVIEWER,
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
