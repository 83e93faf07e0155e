/** The last page of `total` items, `limit` a page (1 for an empty list). */
export const lastPageOf = (total: number, limit: number) => Math.max(1, Math.ceil(total / limit));

/**
 * The page a cache keeps `page` under: itself, or for any page past the end the one right after
 * the last, so random deep page numbers all share one empty answer.
 */
export const keptPageOf = (page: number, total: number, limit: number) =>
  Math.min(page, lastPageOf(total, limit) + 1);

/** A parsed list query: its page, page size and whatever else selects the list. */
export type PageQuery = { readonly page: number; readonly limit: number } & Readonly<Record<string, unknown>>;

/**
 * X-Total-Count and an RFC 8288 Link header (first, prev, next, last) for a paged list: the
 * route's path with the parsed query's parameters (never the client's raw query: nothing it wrote
 * beyond what the route reads reaches the header), by name, `page` set in each. The query is
 * written once and only the page differs between the links (on the cached catalogue reads,
 * building four URL objects a request cost more than a third of the throughput). Routes set them
 * with `ctx.set(pageHeaders(ctx.path, query, total))`.
 */
export function pageHeaders(
  path: string,
  query: PageQuery,
  total: number,
): { 'X-Total-Count': string; Link: string } {
  const { page, limit } = query;
  const last = lastPageOf(total, limit);
  const params = new URLSearchParams();
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      params.set(name, String(value));
    }
  }
  // `name=value` pairs, encoded; `&` never appears unencoded inside one.
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
