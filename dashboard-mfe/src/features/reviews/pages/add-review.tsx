import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { MESSAGES, type ReviewInput } from '@motoparts/contracts';
import { errorMessage, selectSessionUser, useAppSelector } from '@motoparts/state';
import { Field } from '../../../components/form-field';
import { PhotoUpload } from '../../../components/photo-upload';
import { useAddReviewMutation } from '../api';
import { addReviewFormSchema, type AddReviewFormValues } from '../schema';

/** docs/product.md: a testimonial from the signed-in customer; the email is always theirs. */
export default function AddReview() {
  const email = useAppSelector(selectSessionUser)?.email ?? '';
  const [addReview, adding] = useAddReviewMutation();
  const { register, handleSubmit, reset, formState, setValue, watch } = useForm<
    AddReviewFormValues,
    unknown,
    ReviewInput
  >({
    resolver: zodResolver(addReviewFormSchema),
    defaultValues: { email, img: '', review: '', rating: '' },
  });
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (review) => {
    try {
      await addReview(review).unwrap();
      // docs/product.md: the review toast deliberately reuses the Add Product text.
      toast.success(MESSAGES.productAdded);
      reset({ email, img: '', review: '', rating: '' });
    } catch (err) {
      toast.error(errorMessage(err, 'Your review could not be posted. Please try again.'));
    }
  });

  return (
    <section aria-labelledby="add-review-title">
      <h1 id="add-review-title">Add Review</h1>
      <form className="card dash-form" onSubmit={onSubmit} noValidate aria-labelledby="add-review-title">
        <Field id="review-email" label="Email" hint="Reviews are posted under your account's email.">
          {(describedBy) => (
            <input
              id="review-email"
              type="email"
              readOnly
              aria-describedby={describedBy}
              {...register('email')}
            />
          )}
        </Field>
        <Field id="review-img" label="Photo URL" error={errors.img?.message}>
          {(describedBy) => (
            <input
              id="review-img"
              type="url"
              placeholder="https://…"
              aria-invalid={errors.img ? true : undefined}
              aria-describedby={describedBy}
              {...register('img')}
            />
          )}
        </Field>
        <PhotoUpload
          idPrefix="review"
          value={watch('img')}
          onUploaded={(url) => setValue('img', url, { shouldDirty: true, shouldValidate: true })}
        />
        <Field id="review-text" label="Review" error={errors.review?.message}>
          {(describedBy) => (
            <textarea
              id="review-text"
              rows={4}
              aria-invalid={errors.review ? true : undefined}
              aria-describedby={describedBy}
              {...register('review')}
            />
          )}
        </Field>
        <Field id="review-rating" label="Rating" error={errors.rating?.message}>
          {(describedBy) => (
            <select
              id="review-rating"
              aria-invalid={errors.rating ? true : undefined}
              aria-describedby={describedBy}
              {...register('rating')}
            >
              <option value="">Choose a rating</option>
              {[5, 4, 3, 2, 1].map((n) => (
                <option key={n} value={String(n)}>
                  {n} {n === 1 ? 'star' : 'stars'}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="btn" disabled={adding.isLoading}>
          {adding.isLoading ? 'Posting...' : 'Add review'}
        </button>
      </form>
    </section>
  );
}
