import { reviewSchema } from '@motoparts/contracts';
import { z } from 'zod';
import { idParams } from '../http/validate';

/** `/review/:id`: the review's id. */
export const reviewIdParams = idParams('review');

/** A review as the public sees it, named `Review` in the API document. */
export const ReviewSchema = reviewSchema.meta({ id: 'Review' });

/** POST /review answer. */
export const createdReviewSchema = z.object({ success: z.literal(true), review: ReviewSchema });
