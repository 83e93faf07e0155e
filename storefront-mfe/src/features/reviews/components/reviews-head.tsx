/**
 * The reviews page's heading and intro. Also rendered at build time (src/app/prerender.tsx) as
 * that page's first screen, so the page and the HTML paint the same boxes.
 */
export function ReviewsHead() {
  return (
    <header className="page-head">
      <h1>Reviews</h1>
      <p>What workshops, dealers and riders say about their orders.</p>
    </header>
  );
}
