import type Router from '@koa/router';
import {
  minimumQtySchema,
  partInputSchema,
  partListQuerySchema,
  stockChangeSchema,
} from '@motoparts/contracts';
import type { AppDeps, AppState } from '../context';
import { setPageHeaders } from '../lib/paging';
import { adminOnly } from '../middleware/auth';
import { etag } from '../middleware/etag';
import * as parts from '../services/parts';
import { idParam, parseBody, parseQuery } from '../validate';

export function partRoutes(router: Router<AppState>, { env }: AppDeps): void {
  const admin = adminOnly(env);

  router.get('/parts', etag(), async (ctx) => {
    const query = parseQuery(partListQuerySchema, ctx.query);
    const { items, total } = await parts.listParts(query);
    setPageHeaders(ctx, total, query.page, query.limit);
    ctx.body = items;
  });

  router.get('/parts/:id', etag(), async (ctx) => {
    ctx.body = await parts.getPart(idParam(ctx.params.id));
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
