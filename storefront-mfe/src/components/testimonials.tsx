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
