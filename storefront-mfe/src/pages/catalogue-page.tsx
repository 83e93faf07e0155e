import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useHref, useLocation, useSearchParams } from 'react-router-dom';
import {
  CATEGORY_LABELS,
  PART_CATEGORIES,
  PART_SORTS,
  type PartCategory,
  type PartSort,
} from '@motoparts/contracts/messages';
import { catalogApi, type PartPage } from '@motoparts/state';
import { formatCount } from '../components/format';
import { PartCard } from '../components/part-card';
import { ensureStorefrontStyles } from '../styles';

ensureStorefrontStyles();

export const CATALOGUE_PAGE_SIZE = 24;
/** How long typing may pause before the search runs. */
const SEARCH_DEBOUNCE_MS = 300;
const MAX_QUERY = 100;

const SORT_LABELS: Record<PartSort, string> = {
  newest: 'Newest first',
  name: 'Name, A to Z',
  '-name': 'Name, Z to A',
  price: 'Price, low to high',
  '-price': 'Price, high to low',
};

/** The catalogue's whole state, read from the URL (the one source of truth: Back, reload, links). */
interface CatalogueState {
  q: string;
  sort: PartSort | undefined;
  category: PartCategory | undefined;
  inStock: boolean;
  page: number;
}

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.find((v) => v === value);

/** Unknown values in a hand-edited or old link fall back to the defaults instead of failing. */
export function readState(params: URLSearchParams): CatalogueState {
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').trim().slice(0, MAX_QUERY),
    sort: oneOf(PART_SORTS, params.get('sort')),
    category: oneOf(PART_CATEGORIES, params.get('category')),
    inStock: params.get('inStock') === 'true',
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

export function writeState(s: CatalogueState): URLSearchParams {
  const out = new URLSearchParams();
  if (s.q) out.set('q', s.q);
  if (s.sort) out.set('sort', s.sort);
  if (s.category) out.set('category', s.category);
  if (s.inStock) out.set('inStock', 'true');
  if (s.page > 1) out.set('page', String(s.page));
  return out;
}

/** The value after it stopped changing for `ms` (a tiny hook: no library needed for one timer). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * What a control shows: the user's choice at once, and the URL's value whenever the URL changes
 * some other way (Back, a link, Clear). The router commits navigations as transitions, so a
 * control bound straight to the URL would snap back to its old value until the commit lands
 * (a checkbox visibly unticks for a moment, and a quick second click is lost).
 */
function useShownValue<T>(fromUrl: T): [T, (value: T) => void] {
  const [shown, setShown] = useState(fromUrl);
  const [lastUrl, setLastUrl] = useState(fromUrl);
  if (!Object.is(fromUrl, lastUrl)) {
    setLastUrl(fromUrl);
    setShown(fromUrl);
  }
  return [shown, setShown];
}

/**
 * One catalogue page through RTK Query. The request goes through a lazy trigger rather than the
 * plain hook so that a request superseded by newer input (typing, fast paging) is aborted, not
 * left to finish; the data is read with useQueryState, which has a cached page on the very first
 * render (so Back restores the scroll position over a full grid, not a skeleton).
 */
function useCataloguePage(state: CatalogueState) {
  const { q, sort, category, inStock, page } = state;
  const args = useMemo(
    () => ({
      page,
      limit: CATALOGUE_PAGE_SIZE,
      ...(q ? { q } : {}),
      ...(sort ? { sort } : {}),
      ...(category ? { category } : {}),
      ...(inStock ? { inStock: true } : {}),
    }),
    [q, sort, category, inStock, page],
  );
  const [trigger] = catalogApi.useLazyGetPartsQuery();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const request = trigger(args, attempt === 0);
    return () => request.abort();
  }, [trigger, args, attempt]);
  const result = catalogApi.endpoints.getParts.useQueryState(args);
  return { ...result, retry: () => setAttempt((n) => n + 1) };
}

function pageNumbers(current: number, last: number): (number | '…')[] {
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

function Pager({ page, last, onPage }: { page: number; last: number; onPage: (p: number) => void }) {
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

function Results({
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
        <div className="parts-grid catalogue-grid" aria-busy={busy}>
          {data.parts.map((part, i) => (
            <PartCard key={part._id} part={part} eager={i < 4} />
          ))}
        </div>
      )}
      <Pager page={state.page} last={last} onPage={onPage} />
    </>
  );
}

export default function CataloguePage() {
  const [params, setParams] = useSearchParams();
  const state = readState(params);
  const ids = useId();
  const topRef = useRef<HTMLHeadingElement>(null);

  // The box shows what is typed at once; the URL (and so the request) follows after a pause.
  const [typed, setTyped] = useState(state.q);
  const [lastUrlQ, setLastUrlQ] = useState(state.q);
  if (state.q !== lastUrlQ) {
    // The URL changed without typing (Back, a link, Clear): the box follows it.
    setLastUrlQ(state.q);
    setTyped(state.q);
  }
  const settled = useDebounced(typed, SEARCH_DEBOUNCE_MS);
  // This page's own address (with any router basename), to tell whether the shopper is still here.
  const { pathname } = useLocation();
  const ownPath = useHref({ pathname });
  const [category, setCategory] = useShownValue(state.category);
  const [sort, setSort] = useShownValue(state.sort);
  const [inStock, setInStock] = useShownValue(state.inStock);

  const update = (change: Partial<CatalogueState>, { replace = false } = {}) => {
    // Any change but paging starts again at page 1. The shown choices count, not only the URL's:
    // a second change made before the first navigation commits must not undo the first.
    const next = { ...state, category, sort, inStock, page: 1, ...change };
    setParams(writeState(next), { replace });
  };

  useEffect(() => {
    const q = settled.trim().slice(0, MAX_QUERY);
    if (q === state.q) return;
    // A link followed during the pause (Dashboard, a card) has already moved the address, but the
    // router commits it as a transition, so this page is still mounted while the next one loads:
    // a late search must not navigate back here and undo the shopper's click.
    if (window.location.pathname !== ownPath) return;
    setLastUrlQ(q);
    // Typing replaces the history entry: Back leaves the catalogue instead of undoing letters.
    update({ q }, { replace: true });
    // Only a settled new search may rewrite the URL; the other fields are read fresh from it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);

  const { data, isError, isFetching, error, retry } = useCataloguePage(state);
  const aborted =
    isError && error && typeof error === 'object' && 'name' in error && error.name === 'AbortError';

  const onPage = (page: number) => {
    update({ page });
    topRef.current?.scrollIntoView({ block: 'start' });
  };
  const onClear = () => {
    setTyped('');
    setParams(new URLSearchParams());
  };

  return (
    <div className="section catalogue">
      <div className="section-head">
        <p className="section-kicker">Our catalogue</p>
        <h1 id="catalogue-heading" ref={topRef} tabIndex={-1}>
          All parts, tools and gear
        </h1>
      </div>

      <form
        className="catalogue-controls card"
        role="search"
        aria-label="Search and filter the catalogue"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          const q = typed.trim().slice(0, MAX_QUERY);
          if (q !== state.q) {
            setLastUrlQ(q);
            update({ q });
          }
        }}
      >
        <div className="form-field catalogue-search">
          <label htmlFor={`${ids}-q`}>Search</label>
          <input
            id={`${ids}-q`}
            type="search"
            name="q"
            value={typed}
            maxLength={MAX_QUERY}
            placeholder="Name or description"
            autoComplete="off"
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <div className="form-field">
          <label htmlFor={`${ids}-category`}>Category</label>
          <select
            id={`${ids}-category`}
            value={category ?? ''}
            onChange={(e) => {
              const next = oneOf(PART_CATEGORIES, e.target.value);
              setCategory(next);
              update({ category: next });
            }}
          >
            <option value="">All categories</option>
            {PART_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </div>
        <div className="form-field">
          <label htmlFor={`${ids}-sort`}>Sort by</label>
          <select
            id={`${ids}-sort`}
            value={sort ?? ''}
            onChange={(e) => {
              const next = oneOf(PART_SORTS, e.target.value);
              setSort(next);
              update({ sort: next });
            }}
          >
            <option value="">Catalogue order</option>
            {PART_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <label className="catalogue-check">
          <input
            type="checkbox"
            checked={inStock}
            onChange={(e) => {
              setInStock(e.target.checked);
              update({ inStock: e.target.checked });
            }}
          />
          In stock only
        </label>
      </form>

      {data && (!isError || aborted) ? (
        <Results data={data} state={state} busy={isFetching} onPage={onPage} onClear={onClear} />
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
