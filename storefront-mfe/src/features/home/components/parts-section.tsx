import type { ReactNode } from 'react';

/** The home page's parts section around its grid (also its placeholder while the grid loads). */
export function PartsSection({ children }: { children: ReactNode }) {
  return (
    <section className="section" aria-labelledby="parts-heading">
      <div className="section-head">
        <p className="section-kicker">Our catalogue</p>
        <h2 id="parts-heading">Parts</h2>
        <p>Every part ships from our own warehouse. Minimum order and stock are shown on each card.</p>
      </div>
      {children}
    </section>
  );
}

/** Three grey cards where the parts will be. */
export function PartsSkeleton() {
  return (
    <div className="parts-grid" aria-busy="true">
      <p className="visually-hidden">Loading...</p>
      {[0, 1, 2].map((n) => (
        <div key={n} className="skeleton-card" />
      ))}
    </div>
  );
}
