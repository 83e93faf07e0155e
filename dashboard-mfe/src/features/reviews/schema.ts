import { reviewInputSchema } from '@motoparts/contracts';
import type { z } from 'zod';
import { imageField, numberField, textField } from '../../lib/form-fields';

const review = reviewInputSchema.shape;
const { minValue: fewestStars, maxValue: mostStars } = review.rating;

/** Add Review: the signed-in customer's review, with the rating chosen as text. */
export const addReviewFormSchema = reviewInputSchema.extend({
  email: textField(review.email, { label: 'Email' }),
  img: imageField(review.img, 'Photo URL'),
  review: textField(review.review, { label: 'Review' }),
  rating: numberField(review.rating, {
    label: 'Rating',
    badValue: `Rating must be a whole number from ${fewestStars} to ${mostStars}`,
  }),
});
export type AddReviewFormValues = z.input<typeof addReviewFormSchema>;
