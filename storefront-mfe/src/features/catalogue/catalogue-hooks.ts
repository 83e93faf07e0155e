import { useEffect, useMemo, useState } from 'react';
import { catalogApi } from '@motoparts/state';
import { CATALOGUE_PAGE_SIZE, type CatalogueState } from './catalogue-state';

/** The value after it stopped changing for `ms` (a tiny hook: no library needed for one timer). */
export function useDebounced<T>(value: T, ms: number): T {
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
export function useShownValue<T>(fromUrl: T): [T, (value: T) => void] {
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
export function useCataloguePage(state: CatalogueState) {
  const { q, sort, category, inStock, price, page } = state;
  const args = useMemo(
    () => ({
      page,
      limit: CATALOGUE_PAGE_SIZE,
      ...(q ? { q } : {}),
      ...(sort ? { sort } : {}),
      ...(category ? { category } : {}),
      ...(inStock ? { inStock: true } : {}),
      ...(price ? { price } : {}),
      // The filters show how many parts each choice would list (the API's X-Facets).
      facets: true,
    }),
    [q, sort, category, inStock, price, page],
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
