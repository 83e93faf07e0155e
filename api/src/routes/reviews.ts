import type Router from '@koa/router';
import { pageQuerySchema, reviewInputSchema } from '@motoparts/contracts';
import type { AppDeps, AppState } from '../context';
import { catalogCache } from '../lib/catalog-cache';
import { setPageHeaders } from '../lib/paging';
import { callerOf, signedIn } from '../middleware/auth';
import { sendTaggedJson } from '../middleware/etag';
import * as reviews from '../services/reviews';
import { parseBody, parseQuery } from '../validate';

export function reviewRoutes(router: Router<AppState>, { env }: AppDeps): void {
  router.get('/review', async (ctx) => {
    const { page, limit } = parseQuery(pageQuerySchema, ctx.query);
    const entry = await catalogCache.reviews.get(`list:${page}:${limit}`, async () => {
      const { items, total } = await reviews.listReviews(page, limit);
      return { value: items, total };
    });
    setPageHeaders(ctx, entry.total, page, limit);
    sendTaggedJson(ctx, entry);
  });

  router.post('/review', signedIn(env), async (ctx) => {
    const review = await reviews.createReview(
      callerOf(ctx.state),
      parseBody(reviewInputSchema, ctx.state.body),
    );
    ctx.status = 201;
    ctx.body = { success: true, review };
  });
}
