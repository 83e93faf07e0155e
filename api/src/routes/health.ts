import type Router from '@koa/router';
import type { AppState } from '../context';
import { pingDb } from '../db';
import { AppError } from '../errors';

export function healthRoutes(router: Router<AppState>): void {
  router.get('/health', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (!(await pingDb())) throw AppError.unavailable('The database is unreachable.');
    ctx.body = { status: 'ok' };
  });
}
