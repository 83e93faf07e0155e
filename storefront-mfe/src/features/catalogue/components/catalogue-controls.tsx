import type { FormEvent, ReactNode, Ref } from 'react';
import {
  CATEGORY_LABELS,
  PART_CATEGORIES,
  PART_SORTS,
  PRICE_BAND_IDS,
  PRICE_BANDS,
  type PartCategory,
  type PartFacets,
  type PartSort,
  type PriceBand,
} from '@motoparts/contracts/messages';
import { formatCount } from '@motoparts/state';
import { ChoiceSelect } from './choice-select';

const PRICE_LABELS = Object.fromEntries(PRICE_BANDS.map((b) => [b.id, b.label])) as Record<PriceBand, string>;

const SORT_LABELS: Record<PartSort, string> = {
  newest: 'Newest first',
  name: 'Name, A to Z',
  '-name': 'Name, Z to A',
  price: 'Price, low to high',
  '-price': 'Price, high to low',
};

/**
 * The catalogue's heading. Also rendered at build time (src/app/prerender.tsx), with the controls
 * below, as the page's first screen.
 */
export function CatalogueHead({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  return (
    <div className="section-head">
      <p className="section-kicker">Our catalogue</p>
      <h1 id="catalogue-heading" ref={headingRef} tabIndex={-1}>
        All parts, tools and gear
      </h1>
    </div>
  );
}

const ignore = () => undefined;

/**
 * The search box (`search`, the page's combobox) and the filter bar. Without handlers (the build's
 * first screen) it is the same frame at its defaults, `inert` there: what is typed into a picture
 * of the form would be lost when the page replaces it.
 */
export function CatalogueControls({
  ids,
  search,
  category,
  sort,
  price,
  inStock,
  facets,
  onSubmit = ignore,
  onCategory = ignore,
  onSort = ignore,
  onPrice = ignore,
  onInStock = ignore,
  inert,
}: {
  ids: string;
  search: ReactNode;
  category: PartCategory | undefined;
  sort: PartSort | undefined;
  price: PriceBand | undefined;
  inStock: boolean;
  /** The search's counts per choice; none while the first page of results loads. */
  facets: PartFacets | undefined;
  onSubmit?: (e: FormEvent) => void;
  onCategory?: (next: PartCategory | undefined) => void;
  onSort?: (next: PartSort | undefined) => void;
  onPrice?: (next: PriceBand | undefined) => void;
  onInStock?: (next: boolean) => void;
  inert?: boolean;
}) {
  return (
    <form
      className="catalogue-controls card"
      role="search"
      aria-label="Search and filter the catalogue"
      onSubmit={onSubmit}
      inert={inert}
    >
      <div className="form-field catalogue-search">
        <label htmlFor={`${ids}-q`}>Search</label>
        {search}
      </div>
      <ChoiceSelect
        id={`${ids}-category`}
        label="Category"
        allLabel="All categories"
        options={PART_CATEGORIES}
        labels={CATEGORY_LABELS}
        counts={facets?.category}
        value={category}
        onChange={onCategory}
      />
      <ChoiceSelect
        id={`${ids}-sort`}
        label="Sort by"
        allLabel="Catalogue order"
        options={PART_SORTS}
        labels={SORT_LABELS}
        value={sort}
        onChange={onSort}
      />
      <ChoiceSelect
        id={`${ids}-price`}
        label="Price"
        allLabel="Any price"
        options={PRICE_BAND_IDS}
        labels={PRICE_LABELS}
        counts={facets?.price}
        value={price}
        onChange={onPrice}
      />
      <label className="catalogue-check">
        <input type="checkbox" checked={inStock} onChange={(e) => onInStock(e.target.checked)} />
        In stock only
        {facets && <span className="facet-count"> ({formatCount(facets.inStock.true)})</span>}
      </label>
    </form>
  );
}
