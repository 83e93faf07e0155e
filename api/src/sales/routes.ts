import { salesQuerySchema, salesSchema } from '@motoparts/contracts';
import type { RouteDeps } from '../route-deps';
import { adminOnly } from '../http/auth';
import type { ApiRoutes } from '../http/openapi';
import { validate } from '../http/validate';
import { SalesAnswers, type SalesSources } from './service';

export function salesRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, reads, catalogue } = deps;
  const section = routes.section('sales');
  const sources: SalesSources = {
    reads: reads.sales,
    parts: () => catalogue.stockList(),
    timeZone: env.SHOP_TIME_ZONE,
    lowStockFactor: env.LOW_STOCK_FACTOR,
  };
  const answers = new SalesAnswers(sources, reads.kind === 'memory');

  section.get(
    '/sales',
    {
      operationId: 'getSales',
      summary: 'The admins’ Overview of the last `days` days',
      description:
        'Revenue per day of payment (net of refunds, in dollars, days of SHOP_TIME_ZONE, today included, ' +
        'every day listed), orders placed in the window by state, the 10 parts with the most revenue, ' +
        'sold-out and running-low parts, and the pieces unpaid orders hold per part. `days` 1–366 ' +
        '(default 30).',
      ok: { description: 'The figures.', body: salesSchema.meta({ id: 'Sales' }) },
    },
    adminOnly(deps),
    validate({ query: salesQuerySchema }),
    async (ctx) => {
      ctx.body = await answers.answer(ctx.state.input.query.days);
      ctx.set('Cache-Control', 'private, no-store');
    },
  );
}
