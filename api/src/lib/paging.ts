import type { AppContext } from '../http/context';

/** The last page of `total` items, `limit` a page (1 for an empty list). */
export const lastPageOf = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/**
 * The page a cache keeps `page` under: itself, or for any page past the end the one right after
 * the last, so random deep page numbers all share one empty answer.
 */
export const keptPageOf = (page: number, total: number, limit: number) =>
  Math.min(page, lastPageOf(total, limit) + 1);

/**
 * X-Total-Count and an RFC 8288 Link header (first, prev, next, last) for a paged list: the
 * request's own URL with `page` and `limit` set in place. The query is parsed and written once
 * and only the page differs between the links (on the cached catalogue reads, building four URL
 * objects a request cost more than a third of the throughput; bench/api/README.md).
 */
export function setPageHeaders(ctx: AppContext, total: number, page: number, limit: number): void {
  ctx.set(pageHeaders(ctx.path, ctx.querystring, total, page, limit));
}

/** The two headers of `setPageHeaders` for a request to `path?querystring`. */
export function pageHeaders(
  path: string,
  querystring: string,
  total: number,
  page: number,
  limit: number,
): { 'X-Total-Count': string; Link: string } {
  const last = lastPageOf(total, limit);
  const params = new URLSearchParams(querystring);
  params.set('page', '1');
  params.set('limit', String(limit));
  // `name=value` pairs, re-encoded (so nothing the client wrote raw reaches the header); `&`
  // never appears unencoded inside one.
  const pairs = params.toString().split('&');
  const at = [...params.keys()].indexOf('page');
  const link = (p: number, rel: string) => {
    pairs[at] = `page=${p}`;
    return `<${path}?${pairs.join('&')}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  return { 'X-Total-Count': String(total), Link: links.join(', ') };
}
