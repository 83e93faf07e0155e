import type Router from '@koa/router';
import { pageQuerySchema, reviewInputSchema } from '@motoparts/contracts';
import type { AppState, RouteDeps } from '../context';
import { catalogCache } from '../lib/catalog-cache';
import { setPageHeaders } from '../lib/paging';
import { adminOnly, callerOf, signedIn } from '../middleware/auth';
import { sendTaggedJson } from '../middleware/etag';
import * as reviews from '../services/reviews';
import { idParam, parseBody, parseQuery } from '../validate';

export function reviewRoutes(router: Router<AppState>, { env, limits }: RouteDeps): void {
  router.get('/review', async (ctx) => {
    await limits.consume('listing', ctx.ip);
    const { page, limit } = parseQuery(pageQuerySchema, ctx.query);
    // Pages past the end are all the same empty page: they share one cache entry (keyed by the
    // last page + 1), so random page numbers cannot each cost a database query.
    const { total } = await catalogCache.reviews.get('count', async () => ({
      value: null,
      total: await reviews.countReviews(),
    }));
    const lastPage = Math.max(1, Math.ceil(total / limit));
    const servedPage = Math.min(page, lastPage + 1);
    const entry = await catalogCache.reviews.get(`list:${servedPage}:${limit}`, async () => {
      const { items, total } = await reviews.listReviews(servedPage, limit);
      return { value: items, total };
    });
    setPageHeaders(ctx, entry.total, page, limit);
    sendTaggedJson(ctx, entry);
  });

  router.post('/review', signedIn(env), async (ctx) => {
    const caller = callerOf(ctx.state);
    const input = parseBody(reviewInputSchema, ctx.state.body);
    // Counted once valid: a form with a typo does not use up the author's budget.
    await limits.consume('review', caller.uid);
    const review = await reviews.createReview(caller, input);
    ctx.status = 201;
    ctx.body = { success: true, review };
  });

  router.delete('/review/:id', adminOnly(env), async (ctx) => {
    await reviews.deleteReview(idParam(ctx.params.id));
    ctx.body = { success: true };
  });
}
