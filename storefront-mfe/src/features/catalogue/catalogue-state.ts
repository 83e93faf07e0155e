import {
  PART_CATEGORIES,
  PART_SORTS,
  PRICE_BAND_IDS,
  type PartCategory,
  type PartSort,
  type PriceBand,
} from '@motoparts/contracts/messages';

export const CATALOGUE_PAGE_SIZE = 24;
/** The longest search the API takes (its `q`); longer text in the box or a link is cut. */
export const MAX_QUERY = 100;

/** The catalogue's whole state, read from the URL (the one source of truth: Back, reload, links). */
export interface CatalogueState {
  q: string;
  sort: PartSort | undefined;
  category: PartCategory | undefined;
  inStock: boolean;
  price: PriceBand | undefined;
  page: number;
}

export const oneOf = <T extends string>(list: readonly T[], value: string | null): T | undefined =>
  list.find((v) => v === value);

/** Unknown values in a hand-edited or old link fall back to the defaults instead of failing. */
export function readState(params: URLSearchParams): CatalogueState {
  const page = Number(params.get('page'));
  return {
    q: (params.get('q') ?? '').trim().slice(0, MAX_QUERY),
    sort: oneOf(PART_SORTS, params.get('sort')),
    category: oneOf(PART_CATEGORIES, params.get('category')),
    inStock: params.get('inStock') === 'true',
    price: oneOf(PRICE_BAND_IDS, params.get('price')),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
  };
}

export function writeState(s: CatalogueState): URLSearchParams {
  const out = new URLSearchParams();
  if (s.q) out.set('q', s.q);
  if (s.sort) out.set('sort', s.sort);
  if (s.category) out.set('category', s.category);
  if (s.inStock) out.set('inStock', 'true');
  if (s.price) out.set('price', s.price);
  if (s.page > 1) out.set('page', String(s.page));
  return out;
}
