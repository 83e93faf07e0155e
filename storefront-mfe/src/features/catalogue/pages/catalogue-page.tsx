import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useHref, useLocation, useSearchParams } from 'react-router-dom';
import { useAddToCartAfterSignIn } from '../../../components/add-to-cart';
import { ensureStorefrontStyles } from '../../../styles';
import { useCataloguePage, useDebounced, useShownValue } from '../catalogue-hooks';
import { MAX_QUERY, readState, writeState, type CatalogueState } from '../catalogue-state';
import { CatalogueControls, CatalogueHead } from '../components/catalogue-controls';
import { CatalogueResults } from '../components/catalogue-results';
import { SearchSuggestions } from '../components/search-suggestions';

ensureStorefrontStyles();

/** How long typing may pause before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * docs/product.md, `/parts`: the whole catalogue to search, filter, sort and page through. The
 * URL holds the choices, so Back, reload and shared links show the same page.
 */
export default function CataloguePage() {
  // A card's Add to cart pressed before signing in is finished on the way back from /login.
  useAddToCartAfterSignIn();
  const [params, setParams] = useSearchParams();
  const state = readState(params);
  const ids = useId();
  const topRef = useRef<HTMLHeadingElement>(null);

  // The box shows what is typed at once; the URL (and so the request) follows after a pause.
  const [typed, setTyped] = useState(state.q);
  const [urlQ, setUrlQ] = useState(state.q);
  // Searches this page has sent to the URL that it has not shown yet, oldest first. The router
  // commits a navigation later (a transition), so the URL may still show the old search, or an
  // older one of these, while the box already holds newer letters.
  const written = useRef<string[]>([]);
  if (state.q !== urlQ) {
    setUrlQ(state.q);
    const own = written.current.indexOf(state.q);
    if (own >= 0) written.current.splice(0, own + 1);
    else {
      // The URL changed without typing (Back, a link): the box follows it.
      written.current = [];
      setTyped(state.q);
    }
  }
  const settled = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  // This page's own address (with any router basename), to tell whether the shopper is still here.
  const { pathname } = useLocation();
  const ownPath = useHref({ pathname });
  const [category, setCategory] = useShownValue(state.category);
  const [sort, setSort] = useShownValue(state.sort);
  const [inStock, setInStock] = useShownValue(state.inStock);
  const [price, setPrice] = useShownValue(state.price);

  const update = (change: Partial<CatalogueState>, { replace = false } = {}) => {
    // Any change but paging starts again at page 1. The shown choices count, not only the URL's:
    // a second change made before the first navigation commits must not undo the first.
    const next = { ...state, category, sort, inStock, price, page: 1, ...change };
    setParams(writeState(next), { replace });
  };
  const search = (q: string, options?: { replace?: boolean }) => {
    written.current.push(q);
    update({ q }, options);
  };

  useEffect(() => {
    const q = settled.trim().slice(0, MAX_QUERY);
    if (q === state.q) return;
    // A link followed during the pause (Dashboard, a card) has already moved the address, but the
    // router commits it as a transition, so this page is still mounted while the next one loads:
    // a late search must not navigate back here and undo the shopper's click.
    if (window.location.pathname !== ownPath) return;
    // Typing replaces the history entry: Back leaves the catalogue instead of undoing letters.
    search(q, { replace: true });
    // Only a settled new search may rewrite the URL; the other fields are read fresh from it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);

  const { data, isError, isFetching, error, retry } = useCataloguePage(state);
  // The search's counts per choice, from the page shown (X-Facets); none while the first loads.
  const facets = data?.facets;
  const aborted =
    isError && error && typeof error === 'object' && 'name' in error && error.name === 'AbortError';

  const onPage = (page: number) => {
    update({ page });
    topRef.current?.scrollIntoView({ block: 'start' });
  };
  const onClear = () => {
    written.current = [];
    setTyped('');
    setParams(new URLSearchParams());
  };

  return (
    <div className="section catalogue">
      <CatalogueHead headingRef={topRef} />

      <CatalogueControls
        ids={ids}
        search={
          <SearchSuggestions inputId={`${ids}-q`} value={typed} maxLength={MAX_QUERY} onChange={setTyped} />
        }
        category={category}
        sort={sort}
        price={price}
        inStock={inStock}
        facets={facets}
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          const q = typed.trim().slice(0, MAX_QUERY);
          if (q !== state.q) search(q);
        }}
        onCategory={(next) => {
          setCategory(next);
          update({ category: next });
        }}
        onSort={(next) => {
          setSort(next);
          update({ sort: next });
        }}
        onPrice={(next) => {
          setPrice(next);
          update({ price: next });
        }}
        onInStock={(next) => {
          setInStock(next);
          update({ inStock: next });
        }}
      />

      {data && (!isError || aborted) ? (
        <CatalogueResults data={data} state={state} busy={isFetching} onPage={onPage} onClear={onClear} />
      ) : isError && !aborted ? (
        <div className="parts-status" role="alert">
          <p>The parts could not be loaded.</p>
          <button type="button" className="btn btn-outline" onClick={retry}>
            Retry
          </button>
        </div>
      ) : (
        <div className="parts-grid catalogue-grid" aria-busy="true">
          <p className="visually-hidden">Loading...</p>
          {[0, 1, 2, 3].map((n) => (
            <div key={n} className="skeleton-card" />
          ))}
        </div>
      )}
      <p className="catalogue-back">
        <Link to="/">Back to the home page</Link>
      </p>
    </div>
  );
}
