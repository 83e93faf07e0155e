import type { Review, ReviewInput } from '@motoparts/contracts';
import type { Caller } from '../context';
import { AppError } from '../errors';
import { ReviewModel, type ReviewDoc } from '../models/review';

export function toReview(doc: ReviewDoc): Review {
  return { _id: String(doc._id), email: doc.email, img: doc.img, review: doc.review, rating: doc.rating };
}

export async function listReviews(page: number, limit: number): Promise<{ items: Review[]; total: number }> {
  const [docs, total] = await Promise.all([
    ReviewModel.find({})
      .sort({ createdAt: -1, _id: -1 })
      .skip((page - 1) * limit)
      .limit(limit)
      .lean<ReviewDoc[]>(),
    ReviewModel.countDocuments({}),
  ]);
  return { items: docs.map(toReview), total };
}

/** The review is always signed with the caller's email; a different email in the body is refused. */
export async function createReview(caller: Caller, input: ReviewInput): Promise<Review> {
  if (input.email !== undefined && input.email !== caller.email) {
    throw AppError.forbidden('You can only post a review as yourself.');
  }
  const doc = await ReviewModel.create({
    email: caller.email,
    img: input.img,
    review: input.review,
    rating: input.rating,
  });
  return toReview(doc.toObject());
}
