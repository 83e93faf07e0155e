/** Previous / Next for a paged admin list; hidden when everything fits on one page. */
export function Pager({
  page,
  total,
  pageSize,
  label,
  onPage,
}: {
  page: number;
  total: number;
  pageSize: number;
  label: string;
  onPage: (page: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="dash-pager" aria-label={label}>
      <button type="button" className="btn btn-outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="btn btn-outline"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
