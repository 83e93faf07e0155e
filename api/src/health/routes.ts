import { healthSchema } from '@motoparts/contracts';
import type { ApiRoutes } from '../http/openapi';
import { AppError } from '../lib/app-error';
import { pingDb } from '../lib/db';
import { lifecycle } from '../lib/lifecycle';

export function healthRoutes(routes: ApiRoutes): void {
  const section = routes.section('health');

  // Readiness: may this process take traffic? Not while draining, nor without its database, nor
  // before its in-memory catalogue is loaded (the first shopper would wait for the whole scan).
  section.get(
    '/health',
    {
      operationId: 'checkReadiness',
      summary: 'Readiness',
      description: '503 while starting (catalogue loading), draining after SIGTERM, or without the database.',
      ok: { description: 'Ready for traffic.', body: healthSchema },
    },
    async (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      if (lifecycle.draining) throw AppError.unavailable('The API is shutting down.');
      if (lifecycle.warming) throw AppError.unavailable('The API is starting: loading the catalogue.');
      if (!(await pingDb())) throw AppError.unavailable('The database is unreachable.');
      ctx.body = { status: 'ok' };
    },
  );

  // Liveness: is the process itself healthy? Stays 200 while draining or while the database is
  // away, so an orchestrator does not restart a process that is merely waiting.
  section.get(
    '/livez',
    {
      operationId: 'checkLiveness',
      summary: 'Liveness',
      description: 'Stays 200 while draining or while the database is away.',
      ok: { description: 'The process runs.', body: healthSchema },
      noDatabase: true,
    },
    (ctx) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { status: 'ok' };
    },
  );
}
