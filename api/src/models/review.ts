import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { catalogCache } from '../lib/catalog-cache';
import { invalidateOnWrite } from './invalidate';

const reviewSchema = new Schema(
  {
    /** The author's Firebase uid (absent on seeded testimonials and before uid keying). */
    uid: { type: String },
    /** Private: never part of a public answer. */
    email: { type: String, required: true },
    /** What the public sees of the author: their display name when they posted. */
    name: { type: String, default: '' },
    img: { type: String, required: true },
    review: { type: String, required: true },
    rating: { type: Number, required: true, min: 1, max: 5 },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// GET /review sorts newest first with an `_id` tie-break; the seed upserts by (email, review).
reviewSchema.index({ createdAt: -1, _id: -1 });
reviewSchema.index({ email: 1 });
invalidateOnWrite(reviewSchema, () => catalogCache.reviews.invalidate('all'));

export type ReviewDoc = InferSchemaType<typeof reviewSchema> & { _id: Types.ObjectId };
export const ReviewModel = model('Review', reviewSchema);
