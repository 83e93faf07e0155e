import { pageQuerySchema, reviewInputSchema, successSchema } from '@motoparts/contracts';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps';
import { adminOnly, callerOf, signedIn } from '../http/auth';
import { conditionalReadHeaders, sendTaggedJson } from '../http/etag';
import type { ApiRoutes } from '../http/openapi';
import { listingCounter, listingLimited, rateLimited } from '../http/rate-limit';
import { queryParser, validate } from '../http/validate';
import { pageHeaders } from '../lib/paging';
import { hostedImg } from '../images/service';
import * as reviews from './service';
import { createdReviewSchema, reviewIdParams, ReviewSchema } from './validators';

export function reviewRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, limits, reviewPages } = deps;
  const section = routes.section('reviews');

  // A cached page is sent before the router runs (http/cached-reads.ts), a miss by the route below.
  const parsePage = queryParser(pageQuerySchema);
  routes.cached.add('/review', {
    count: listingCounter(env, limits),
    answer: (ctx) => {
      const query = parsePage(ctx.query);
      const entry = reviewPages.peek(query.page, query.limit);
      return entry && { entry, page: query };
    },
  });

  section.get(
    '/review',
    {
      operationId: 'listReviews',
      summary: 'One page of reviews, newest first',
      headers: conditionalReadHeaders,
      ok: {
        description: 'The page.',
        body: z.array(ReviewSchema),
        headers: ['X-Total-Count', 'Link', 'ETag', 'Cache-Control'],
        revalidates: true,
      },
    },
    listingLimited(env, limits),
    validate({ query: pageQuerySchema }),
    async (ctx) => {
      const { page, limit } = ctx.state.input.query;
      const entry = await reviewPages.page(page, limit);
      ctx.set(pageHeaders(ctx.path, ctx.state.input.query, entry.total));
      sendTaggedJson(ctx, entry);
    },
  );

  section.post(
    '/review',
    {
      operationId: 'postReview',
      summary: 'Post a review as yourself',
      description:
        'An `email` other than the caller’s is refused (403); it is never published. An outside photo ' +
        'address (`img`) is fetched once and hosted by the API (400 when it cannot be).',
      ok: { status: 201, description: 'The review as published.', body: createdReviewSchema },
      errors: [403],
    },
    signedIn(deps),
    validate({ body: reviewInputSchema }),
    // Counted once valid: a form with a typo does not use up the author's budget.
    rateLimited(limits, 'review', (state) => callerOf(state).uid),
    async (ctx) => {
      const { body } = ctx.state.input;
      const review = await reviews.createReview(callerOf(ctx.state), {
        ...body,
        img: await hostedImg(env, body.img),
      });
      ctx.status = 201;
      ctx.body = { success: true, review };
    },
  );

  section.delete(
    '/review/:id',
    {
      operationId: 'deleteReview',
      summary: 'Remove a review (moderation)',
      ok: { description: 'Removed.', body: successSchema },
      errors: [404],
    },
    adminOnly(deps),
    validate({ params: reviewIdParams }),
    async (ctx) => {
      await reviews.deleteReview(ctx.state.input.params.id);
      ctx.body = { success: true };
    },
  );
}
