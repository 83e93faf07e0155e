/** The page buttons to show: the first, the last, and the current one with its neighbours. */
export function pageNumbers(current: number, last: number): (number | '…')[] {
  const pages = new Set([1, last, current - 1, current, current + 1].filter((n) => n >= 1 && n <= last));
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | '…')[] = [];
  for (const [i, n] of sorted.entries()) {
    const prev = sorted[i - 1];
    if (prev !== undefined && n - prev > 1) out.push('…');
    out.push(n);
  }
  return out;
}

/** Previous, the page numbers (a gap shown as …) and Next; nothing when one page holds all. */
export function CataloguePager({
  page,
  last,
  onPage,
}: {
  page: number;
  last: number;
  onPage: (p: number) => void;
}) {
  if (last <= 1) return null;
  return (
    <nav className="catalogue-pager" aria-label="Catalogue pages">
      <button type="button" className="btn btn-outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <ol>
        {pageNumbers(page, last).map((n, i) =>
          n === '…' ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <button
                type="button"
                className={`btn ${n === page ? '' : 'btn-outline'}`}
                aria-current={n === page ? 'page' : undefined}
                aria-label={`Page ${n}`}
                onClick={() => onPage(n)}
              >
                {n}
              </button>
            </li>
          ),
        )}
      </ol>
      <button
        type="button"
        className="btn btn-outline"
        disabled={page >= last}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
