import {
  minimumQtySchema,
  partEditSchema,
  partInputSchema,
  partListQuerySchema,
  stockChangeSchema,
} from '@motoparts/contracts';
import { z } from 'zod';
import type { RouteDeps } from '../route-deps';
import { adminOnly } from '../http/auth';
import { conditionalReadHeaders, sendTaggedJson } from '../http/etag';
import type { ApiRoutes } from '../http/openapi';
import { listingCounter, listingLimited } from '../http/rate-limit';
import { queryParser, validate } from '../http/validate';
import { pageHeaders } from '../lib/paging';
import { hostedImg } from '../images/service';
import * as parts from './service';
import { createdPartSchema, deletedPartSchema, partIdParams, PartSchema } from './validators';

export function partRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, limits, catalogue } = deps;
  const admin = adminOnly(deps);
  const section = routes.section('parts');

  // Catalogue reads are answered by the catalogue's cache (body + ETag), which builds the keys and
  // follows every write to the parts collection (parts/catalogue.ts); a cached answer is sent
  // before the router runs (http/cached-reads.ts), a miss by these routes.
  const countListing = listingCounter(env, limits);
  const parseList = queryParser(partListQuerySchema);
  routes.cached.add('/parts', {
    count: countListing,
    answer: (ctx) => {
      const query = parseList.ofRequest(ctx.querystring, () => ctx.query);
      const entry = catalogue.peekList(query);
      return entry && { entry, page: query };
    },
  });
  routes.cached.add('/parts/:id', {
    answer: (_ctx, id) => {
      const entry = catalogue.peekPart(id);
      return entry && { entry };
    },
  });
  section.get(
    '/parts',
    {
      operationId: 'listParts',
      summary: 'One page of the catalogue',
      description:
        'Searched, filtered, sorted and paged. `q`: every word of it must match a word of the name or the ' +
        'description, by prefix, with a typo per four to five letters, or joined with its neighbour ' +
        '("sparkplug" finds "Spark Plug" and "spark plug" finds "Sparkplug"); without `sort` the matches come ' +
        'by relevance (exact over prefix over typo, the name over the description). `facets=true` adds the ' +
        "search's counts per filter choice (`X-Facets`); the body stays the plain list. JSON answers of 1,024 " +
        'bytes and more are gzipped for clients that accept it.',
      headers: conditionalReadHeaders,
      ok: {
        description: 'The page.',
        body: z.array(PartSchema),
        headers: ['X-Total-Count', 'X-Facets', 'Link', 'ETag', 'Cache-Control', 'Content-Encoding'],
        revalidates: true,
      },
    },
    listingLimited(env, limits),
    validate({ query: partListQuerySchema }),
    async (ctx) => {
      const { query } = ctx.state.input;
      const entry = await catalogue.listAnswer(query);
      ctx.set(pageHeaders(ctx.path, query, entry.total));
      sendTaggedJson(ctx, entry);
    },
  );

  section.get(
    '/parts/:id',
    {
      operationId: 'getPart',
      summary: 'One part',
      headers: conditionalReadHeaders,
      ok: {
        description: 'The part.',
        body: PartSchema,
        headers: ['ETag', 'Cache-Control'],
        revalidates: true,
      },
      errors: [404],
    },
    validate({ params: partIdParams }),
    async (ctx) => {
      sendTaggedJson(ctx, await catalogue.partAnswer(ctx.state.input.params.id));
    },
  );

  section.post(
    '/parts',
    {
      operationId: 'createPart',
      summary: 'Add a part',
      description:
        'An outside photo address (`img`: http or https) is fetched once by the API and stored as the path ' +
        'of its hosted copy (`/uploads/<id>.webp`); one that cannot be fetched (not public, too large, too ' +
        'slow, not a photo) is a 400 saying why.',
      ok: { status: 201, description: 'The part as stored.', body: createdPartSchema, headers: ['Location'] },
      errors: [409],
    },
    admin,
    validate({ body: partInputSchema }),
    async (ctx) => {
      const { body } = ctx.state.input;
      // An outside photo address is fetched once and hosted here before the part is written.
      const part = await parts.createPart({ ...body, img: await hostedImg(env, body.img) });
      ctx.status = 201;
      ctx.set('Location', `/parts/${part._id}`);
      ctx.body = { success: true, part };
    },
  );

  section.put(
    '/parts/:id',
    {
      operationId: 'editPart',
      summary: 'Edit a part',
      description:
        'An outside photo address (`img`) is fetched once and hosted by the API (400 when it cannot be). ' +
        'Replaces the name, text, photo, price and minimum order (`qty`) and, when sent, the category and ' +
        'the volume prices (`priceTiers`; `[]` removes them; not sent, they are kept). Never the stock: ' +
        '`availableQty` changes only through restocks and orders, and a body carrying it is a 400. Tiers ' +
        'sent must start above the `qty` and cost less than the `price` sent (400); kept tiers that the new ' +
        '`qty` or `price` would cross are a 409.',
      ok: { description: 'The part as stored.', body: PartSchema },
      errors: [404, 409],
    },
    admin,
    validate({ params: partIdParams, body: partEditSchema }),
    async (ctx) => {
      const { params, body } = ctx.state.input;
      // The photo the part already has is kept as it is (an outside one is the job's to host);
      // a new outside address is fetched once and hosted here.
      const img = body.img === (await parts.storedImg(params.id)) ? body.img : await hostedImg(env, body.img);
      ctx.body = await parts.editPart(params.id, { ...body, img });
    },
  );

  section.delete(
    '/parts/:id',
    {
      operationId: 'deletePart',
      summary: 'Remove a part',
      description:
        'A part that open orders still need (unpaid holds, paid orders not yet delivered, disputes) is archived instead: hidden from the catalogue, carts and new orders, kept for those orders (`archived: true`).',
      ok: { description: 'Removed, or archived.', body: deletedPartSchema },
      errors: [404],
    },
    admin,
    validate({ params: partIdParams }),
    async (ctx) => {
      const { archived } = await parts.deletePart(ctx.state.input.params.id, deps.partHasOpenOrders);
      ctx.body = { success: true, archived };
    },
  );

  section.put(
    '/restockQty/:id',
    {
      operationId: 'restockPart',
      summary: 'Add stock',
      description: 'One atomic increment: concurrent restocks never overwrite each other.',
      ok: { description: 'The part with its new stock.', body: PartSchema },
      errors: [404],
    },
    admin,
    validate({ params: partIdParams, body: stockChangeSchema }),
    async (ctx) => {
      const { params, body } = ctx.state.input;
      ctx.body = await parts.restock(params.id, body.quantity);
    },
  );

  section.put(
    '/reduceQty/:id',
    {
      operationId: 'writeOffStock',
      summary: 'Write stock off',
      description: 'Never below zero (409).',
      ok: { description: 'The part with its new stock.', body: PartSchema },
      errors: [404, 409],
    },
    admin,
    validate({ params: partIdParams, body: stockChangeSchema }),
    async (ctx) => {
      const { params, body } = ctx.state.input;
      ctx.body = await parts.reduceStock(params.id, body.quantity);
    },
  );

  for (const direction of ['increase', 'decrease'] as const) {
    section.put(
      `/${direction}Qty/:id`,
      {
        operationId: direction === 'increase' ? 'raiseMinimumQty' : 'lowerMinimumQty',
        summary: `${direction === 'increase' ? 'Raise' : 'Lower'} the minimum purchase quantity`,
        description:
          direction === 'increase'
            ? "Only raises it, and only below the first of the part's `priceTiers` (409 otherwise)."
            : 'Only lowers it (409 otherwise).',
        ok: { description: 'The part with its new minimum.', body: PartSchema },
        errors: [404, 409],
      },
      admin,
      validate({ params: partIdParams, body: minimumQtySchema }),
      async (ctx) => {
        const { params, body } = ctx.state.input;
        ctx.body = await parts.setMinimumQty(params.id, body.newQuantity, direction);
      },
    );
  }
}
