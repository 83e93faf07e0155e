import type { AppContext } from '../http/context';

/** X-Total-Count and an RFC 8288 Link header (first, prev, next, last) for a paged list. */
export function setPageHeaders(ctx: AppContext, total: number, page: number, limit: number): void {
  ctx.set('X-Total-Count', String(total));
  const last = Math.max(1, Math.ceil(total / limit));
  const link = (p: number, rel: string) => {
    const url = new URL(ctx.originalUrl, 'http://x');
    url.searchParams.set('page', String(p));
    url.searchParams.set('limit', String(limit));
    return `<${url.pathname}${url.search}>; rel="${rel}"`;
  };
  const links = [link(1, 'first')];
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  if (page < last) links.push(link(page + 1, 'next'));
  links.push(link(last, 'last'));
  ctx.set('Link', links.join(', '));
}
