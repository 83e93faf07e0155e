import type Router from '@koa/router';
import {
  minimumQtySchema,
  partInputSchema,
  partListQuerySchema,
  stockChangeSchema,
} from '@motoparts/contracts';
import type { AppState, RouteDeps } from '../context';
import { catalogCache } from '../lib/catalog-cache';
import { setPageHeaders } from '../lib/paging';
import { adminOnly } from '../middleware/auth';
import { sendTaggedJson } from '../middleware/etag';
import { partCatalog } from '../services/catalog';
import * as parts from '../services/parts';
import { idParam, parseBody, parseQuery } from '../validate';

export function partRoutes(router: Router<AppState>, { env, limits }: RouteDeps): void {
  const admin = adminOnly(env);

  // Catalogue reads go through the in-process cache (body + ETag), keyed by the parsed query;
  // the models invalidate it on every write (lib/catalog-cache.ts).
  router.get('/parts', async (ctx) => {
    await limits.consume('listing', ctx.ip);
    const query = parseQuery(partListQuerySchema, ctx.query);
    // q last: it is the only free text, so it cannot shift the other fields' positions.
    const key = `list:${query.page}:${query.limit}:${query.sort ?? ''}:${query.category ?? ''}:${query.inStock ?? ''}:${query.q ?? ''}`;
    const entry = await catalogCache.parts.get(key, async () => {
      const { items, total } = await partCatalog.list(query);
      return { value: items, total, ids: items.map((p) => p._id), anyPart: query.inStock !== undefined };
    });
    setPageHeaders(ctx, entry.total, query.page, query.limit);
    sendTaggedJson(ctx, entry);
  });

  router.get('/parts/:id', async (ctx) => {
    const id = idParam(ctx.params.id).toLowerCase();
    const entry = await catalogCache.parts.get(`part:${id}`, async () => ({
      value: await partCatalog.get(id),
      ids: [id],
    }));
    sendTaggedJson(ctx, entry);
  });

  router.post('/parts', admin, async (ctx) => {
    const input = parseBody(partInputSchema, ctx.state.body);
    const part = await parts.createPart(input);
    ctx.status = 201;
    ctx.set('Location', `/parts/${part._id}`);
    ctx.body = { success: true, part };
  });

  router.delete('/parts/:id', admin, async (ctx) => {
    await parts.deletePart(idParam(ctx.params.id));
    ctx.body = { success: true };
  });

  router.put('/restockQty/:id', admin, async (ctx) => {
    const id = idParam(ctx.params.id);
    ctx.body = await parts.restock(id, parseBody(stockChangeSchema, ctx.state.body).quantity);
  });

  router.put('/reduceQty/:id', admin, async (ctx) => {
    const id = idParam(ctx.params.id);
    ctx.body = await parts.reduceStock(id, parseBody(stockChangeSchema, ctx.state.body).quantity);
  });

  router.put('/increaseQty/:id', admin, async (ctx) => {
    const id = idParam(ctx.params.id);
    ctx.body = await parts.setMinimumQty(
      id,
      parseBody(minimumQtySchema, ctx.state.body).newQuantity,
      'increase',
    );
  });

  router.put('/decreaseQty/:id', admin, async (ctx) => {
    const id = idParam(ctx.params.id);
    ctx.body = await parts.setMinimumQty(
      id,
      parseBody(minimumQtySchema, ctx.state.body).newQuantity,
      'decrease',
    );
  });
}
