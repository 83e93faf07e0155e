import { Schema, model, type InferSchemaType, type Types } from 'mongoose';

const reviewSchema = new Schema(
  {
    email: { type: String, required: true },
    img: { type: String, required: true },
    review: { type: String, required: true },
    rating: { type: Number, required: true, min: 1, max: 5 },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
reviewSchema.index({ createdAt: -1 });

export type ReviewDoc = InferSchemaType<typeof reviewSchema> & { _id: Types.ObjectId };
export const ReviewModel = model('Review', reviewSchema);
