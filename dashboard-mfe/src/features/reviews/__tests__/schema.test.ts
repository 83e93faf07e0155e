import { addReviewFormSchema } from '../schema';

function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
}

describe('Add Review form', () => {
  const review = {
    email: 'rider@motoparts.test',
    img: 'https://example.com/me.jpg',
    review: 'Great chain',
    rating: '5',
  };

  it('gives the API payload with a numeric rating', () => {
    expect(addReviewFormSchema.parse(review)).toEqual({ ...review, rating: 5 });
  });

  it('requires img, review and rating', () => {
    expect(messages(addReviewFormSchema.safeParse({ ...review, img: '', review: '', rating: '' }))).toEqual({
      img: 'Photo URL is required',
      review: 'Review is required',
      rating: 'Rating is required',
    });
  });

  it('keeps the rating within 1 to 5', () => {
    for (const rating of ['0', '6', '2.5', 'x']) {
      expect(messages(addReviewFormSchema.safeParse({ ...review, rating })).rating).toBe(
        'Rating must be a whole number from 1 to 5',
      );
    }
  });

  it('keeps the review within the length the API takes', () => {
    expect(messages(addReviewFormSchema.safeParse({ ...review, review: 'x'.repeat(1001) })).review).toBe(
      'Review must be at most 1000 characters',
    );
  });
});
