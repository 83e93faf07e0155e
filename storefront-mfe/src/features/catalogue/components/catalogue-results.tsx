import { isInStock } from '@motoparts/contracts/messages';
import { formatCount, type PartPage } from '@motoparts/state';
import { AddToCartButton } from '../../../components/add-to-cart';
import { PartCard } from '../../../components/part-card';
import { CATALOGUE_PAGE_SIZE, type CatalogueState } from '../catalogue-state';
import { CataloguePager } from './catalogue-pager';

/** One page of results: the count, the grid (or why it is empty) and the pager. */
export function CatalogueResults({
  data,
  state,
  busy,
  onPage,
  onClear,
}: {
  data: PartPage;
  state: CatalogueState;
  busy: boolean;
  onPage: (p: number) => void;
  onClear: () => void;
}) {
  const last = Math.max(1, Math.ceil(data.total / CATALOGUE_PAGE_SIZE));
  const filtered = Boolean(state.q || state.category || state.inStock);
  return (
    <>
      <p className="catalogue-count" role="status" data-testid="result-count">
        {data.total === 0
          ? 'No parts found'
          : `${formatCount(data.total)} ${data.total === 1 ? 'part' : 'parts'}${
              last > 1 ? `, page ${formatCount(Math.min(state.page, last))} of ${formatCount(last)}` : ''
            }`}
      </p>
      {data.parts.length === 0 ? (
        <div className="catalogue-empty card" data-testid="catalogue-empty">
          <h2>{data.total > 0 ? 'This page is past the end of the list' : 'No parts match your search'}</h2>
          <p>
            {data.total > 0
              ? 'The list is shorter than this page number.'
              : filtered
                ? 'Try other words, another category, or include parts that are sold out.'
                : 'No parts are listed right now.'}
          </p>
          {data.total > 0 ? (
            <button type="button" className="btn" onClick={() => onPage(1)}>
              Go to the first page
            </button>
          ) : (
            filtered && (
              <button type="button" className="btn" onClick={onClear}>
                Clear search and filters
              </button>
            )
          )}
        </div>
      ) : (
        <>
          {/* The cards' names are level-3 headings: under the page's h1, one level between. */}
          <h2 className="visually-hidden">Results</h2>
          <div className="parts-grid catalogue-grid" aria-busy={busy}>
            {data.parts.map((part, i) => (
              <PartCard key={part._id} part={part} eager={i < 4}>
                <AddToCartButton
                  request={{ partId: part._id, name: part.name, qty: part.qty, atLeast: true }}
                  disabled={!isInStock(part)}
                  className="btn btn-outline card-action"
                  label={`Add to cart: ${part.name}`}
                />
              </PartCard>
            ))}
          </div>
        </>
      )}
      <CataloguePager page={state.page} last={last} onPage={onPage} />
    </>
  );
}
