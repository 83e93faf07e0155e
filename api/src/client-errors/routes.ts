import { z } from 'zod';
import { adminOnly } from '../http/auth';
import type { ApiRoutes } from '../http/openapi';
import { rateLimited } from '../http/rate-limit';
import { validate } from '../http/validate';
import type { RouteDeps } from '../route-deps';
import { clientErrorCounts, recordClientError } from './service';

/** What the shell reports when a remote fails to load. */
const clientErrorInput = z
  .object({
    remote: z.enum(['storefront', 'auth', 'dashboard']),
    version: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[0-9A-Za-z][0-9A-Za-z.+_-]*$/, 'must be a version such as 2.1.0'),
    url: z.url({ protocol: /^https?$/ }).max(2048),
    message: z.string().max(1000),
  })
  .meta({ id: 'ClientErrorReport' });

const clientErrorCount = z
  .object({
    remote: z.string(),
    version: z.string(),
    count: z.number().int(),
    lastAt: z.string(),
    lastUrl: z.string(),
    lastMessage: z.string(),
  })
  .meta({ id: 'ClientErrorCount' });

/**
 * The front ends' reports of remotes that failed to load, so a team learns what its canary does
 * in browsers: anyone may report (the page may have no session), limited per client address and
 * stored as one bounded counter per remote version; only admins read the counts.
 */
export function clientErrorRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, limits } = deps;
  const section = routes.section('client-errors');

  section.post(
    '/client-errors',
    {
      operationId: 'reportClientError',
      summary: 'Report a remote that failed to load in a browser',
      description:
        'Counted under the remote and its version; the latest url and message are kept with the count. ' +
        'Anonymous; limited per client address (`RATE_LIMIT_CLIENT_ERRORS`).',
      ok: { status: 201, description: 'Counted.', body: z.object({ success: z.literal(true) }) },
    },
    rateLimited(limits, 'clientErrors', (_state, client) => client),
    validate({ body: clientErrorInput }),
    async (ctx) => {
      await recordClientError(ctx.state.input.body, env.CLIENT_ERRORS_MAX);
      ctx.status = 201;
      ctx.body = { success: true };
    },
  );

  section.get(
    '/client-errors',
    {
      operationId: 'getClientErrors',
      summary: 'Remote load failures reported by browsers, counted per remote version',
      description: `At most CLIENT_ERRORS_MAX counters (default 500); the least recently seen go first.`,
      ok: { description: 'The counters, by remote and version.', body: z.array(clientErrorCount) },
    },
    adminOnly(deps),
    async (ctx) => {
      ctx.body = await clientErrorCounts();
      ctx.set('Cache-Control', 'private, no-store');
    },
  );
}
