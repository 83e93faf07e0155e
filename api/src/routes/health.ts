import type Router from '@koa/router';
import type { AppState } from '../context';
import { pingDb } from '../db';
import { AppError } from '../errors';
import { lifecycle } from '../lib/lifecycle';

export function healthRoutes(router: Router<AppState>): void {
  // Readiness: may this process take traffic? Not while draining, nor without its database, nor
  // before its in-memory catalogue is loaded (the first shopper would wait for the whole scan).
  router.get('/health', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    if (lifecycle.draining) throw AppError.unavailable('The API is shutting down.');
    if (lifecycle.warming) throw AppError.unavailable('The API is starting: loading the catalogue.');
    if (!(await pingDb())) throw AppError.unavailable('The database is unreachable.');
    ctx.body = { status: 'ok' };
  });

  // Liveness: is the process itself healthy? Stays 200 while draining or while the database is
  // away, so an orchestrator does not restart a process that is merely waiting.
  router.get('/livez', (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { status: 'ok' };
  });
}
