import { assetUrl, useGetReviewsQuery } from '@motoparts/state';
import type { Review } from '@motoparts/contracts';
import { StarRating } from './star-rating';

const DEFAULT_REVIEWER = '/images/avatar-default.svg';

function Testimonial({ review }: { review: Review }) {
  return (
    <figure className="testimonial card" data-testid="testimonial">
      <StarRating rating={review.rating} />
      <blockquote>{review.review}</blockquote>
      <figcaption>
        <img
          src={assetUrl(review.img || DEFAULT_REVIEWER)}
          alt=""
          width={48}
          height={48}
          loading="lazy"
          onError={(e) => {
            e.currentTarget.src = assetUrl(DEFAULT_REVIEWER);
          }}
        />
        <span className="testimonial-author">{review.name}</span>
      </figcaption>
    </figure>
  );
}

/**
 * Build time: the reviews as the prerendered first screen holds them (src/app/prerender.tsx), the
 * same boxes as Testimonials: an empty list and one review's markup in a <template>, which the
 * shell's inline script copies for each review of GET /review, filling each `data-fill`
 * (`attribute:field`, `text` for the text) from the review's `review`, `name` and `img` (left
 * as the default photo when the review has none) and the stars' `on`, `off` and `label`, as
 * StarRating writes them.
 */
export function TestimonialsSlot() {
  return (
    <div className="testimonials" data-fill-list="reviews">
      <template>
        <figure className="testimonial card" data-testid="testimonial">
          <p className="stars" role="img" data-fill="aria-label:label">
            <span aria-hidden="true" data-fill="text:on" />
            <span aria-hidden="true" className="off" data-fill="text:off" />
          </p>
          <blockquote data-fill="text:review" />
          <figcaption>
            <img src={DEFAULT_REVIEWER} data-fill="src:img" alt="" width={48} height={48} loading="lazy" />
            <span className="testimonial-author" data-fill="text:name" />
          </figcaption>
        </figure>
      </template>
    </div>
  );
}

/** Client testimonials from GET /review; `limit` shows the first few on the home page. */
export function Testimonials({ limit }: { limit?: number }) {
  const { data, isLoading, isError, refetch } = useGetReviewsQuery();
  if (isLoading) return <p className="parts-status">Loading...</p>;
  if (isError || !data) {
    return (
      <div className="parts-status" role="alert">
        <p>The reviews could not be loaded.</p>
        <button type="button" className="btn btn-outline" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  }
  if (data.length === 0) return <p className="parts-status">No reviews yet.</p>;
  const shown = limit ? data.slice(0, limit) : data;
  return (
    <div className="testimonials">
      {shown.map((review) => (
        <Testimonial key={review._id} review={review} />
      ))}
    </div>
  );
}
