/** docs/product.md: static figures. */
const FIGURES = [
  { figure: '100+', label: 'Customers' },
  { figure: '125M+', label: 'Annual revenue' },
  { figure: '50+', label: 'Tools' },
  { figure: '35k+', label: 'Reviews' },
];

export function BusinessSummary() {
  return (
    <section className="summary" aria-labelledby="summary-heading">
      <div className="summary-inner">
        <h2 id="summary-heading">Trusted by workshops and riders</h2>
        <p className="summary-lead">Workshops, dealers and fleets across the country buy their parts here.</p>
        <ul className="summary-grid">
          {FIGURES.map(({ figure, label }) => (
            <li key={label}>
              <span className="summary-figure">{figure}</span>
              <span className="summary-label">{label}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
