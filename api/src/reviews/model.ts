import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { writeFeed } from '../lib/write-feed';
import { clearRehostFailureOnNewImg, rehostFields } from '../images/model';

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
    /** While `img` is still an outside URL: the re-hosting job's claim and failure (images/jobs.ts). */
    ...rehostFields,
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// GET /review sorts newest first with an `_id` tie-break; the seed upserts by (email, review).
reviewSchema.index({ createdAt: -1, _id: -1 });
reviewSchema.index({ email: 1 });
clearRehostFailureOnNewImg(reviewSchema);
/** Every write to the reviews collection: each app's cached GET /review pages (reviews/service.ts) follow it. */
export const reviewWrites = writeFeed(reviewSchema);

export type ReviewDoc = InferSchemaType<typeof reviewSchema> & { _id: Types.ObjectId };
export const ReviewModel = model('Review', reviewSchema);
