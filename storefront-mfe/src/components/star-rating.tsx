/** Stars for the eye, one sentence for screen readers (docs/product.md: a rating shows as stars). */
export function StarRating({ rating, max = 5 }: { rating: number; max?: number }) {
  const value = Math.max(0, Math.min(max, Math.round(rating)));
  return (
    <p className="stars" role="img" aria-label={`Rated ${value} out of ${max}`}>
      <span aria-hidden="true">{'★'.repeat(value)}</span>
      <span aria-hidden="true" className="off">
        {'★'.repeat(max - value)}
      </span>
    </p>
  );
}
