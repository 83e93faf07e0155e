import type { Part } from '@motoparts/contracts';
import { z } from 'zod';
import type { AppContext } from '../http/context';
import type { ApiRoutes } from '../http/openapi';
import { listingLimited } from '../http/rate-limit';
import { validate } from '../http/validate';
import { AppError } from '../lib/app-error';
import { shopUrl } from '../lib/env';
import type { RouteDeps } from '../route-deps';
import { partHead } from './page-head';
import { robotsTxt, Sitemap } from './sitemap';

/** `/sitemaps/<n>.xml`: a file of a sitemap past 50,000 addresses. */
const sitemapFileParams = z.object({
  file: z.string().regex(/^[1-9][0-9]{0,5}\.xml$/, 'must be <n>.xml'),
});
const partPageParams = z.object({ id: z.string().max(64) });

const trimSlash = (url: string) => (url.endsWith('/') ? url.slice(0, -1) : url);

/**
 * What the shop's web servers (scripts/serve-static.mjs locally, deploy/nginx.conf in production)
 * need from the API to serve the public site as search engines read it: a part page's head, the
 * sitemap and robots.txt. A head costs what `GET /parts/:id` costs (the catalogue's cached part,
 * a few kilobytes of text) and, like it, is not limited, so every visitor's page load through one
 * server is answered; robots.txt is a constant. The sitemap, megabytes at a large catalogue, is
 * limited as the lists are, except for the shop's servers calling with `X-Service-Token`.
 */
export function siteRoutes(routes: ApiRoutes, deps: RouteDeps): void {
  const { env, limits, catalogue } = deps;
  const section = routes.section('site');
  const shop = shopUrl(env);
  const sitemap = new Sitemap(shop);
  const limited = listingLimited(env, limits);

  section.get(
    '/site/parts/:id/head',
    {
      operationId: 'getPartPageHead',
      summary: "The <head> elements of a part's public page",
      description:
        'Title, description, canonical link, Open Graph tags and a schema.org `Product` (JSON-LD) for ' +
        '`/parts/:id`, as HTML for the web servers to put into the page. An id that names no part on sale ' +
        '(malformed, unknown, archived) is a 404: the servers then answer the page with a 404 and `noindex`.',
      ok: { description: 'The elements.', mediaType: 'text/html', headers: ['Cache-Control'] },
      errors: [404],
    },
    validate({ params: partPageParams }),
    async (ctx) => {
      const { id } = ctx.state.input.params;
      const part = await knownPart(id);
      if (!part) throw AppError.notFound('Part');
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = partHead(part, { shop, api: apiUrl(ctx) });
    },
  );

  section.get(
    '/site/sitemap.xml',
    {
      operationId: 'getSitemap',
      summary: 'The sitemap (served at /sitemap.xml)',
      description:
        'Every public page and every part on sale; past 50,000 addresses a sitemap index naming ' +
        '`/sitemaps/<n>.xml`.',
      ok: { description: 'The sitemap.', mediaType: 'application/xml', headers: ['Cache-Control'] },
    },
    limited,
    async (ctx) => {
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'application/xml; charset=utf-8';
      ctx.body = await sitemap.root();
    },
  );

  section.get(
    '/site/sitemaps/:file',
    {
      operationId: 'getSitemapFile',
      summary: 'One file of a sitemap index (served at /sitemaps/<n>.xml)',
      ok: { description: 'The file.', mediaType: 'application/xml', headers: ['Cache-Control'] },
      errors: [404],
    },
    limited,
    validate({ params: sitemapFileParams }),
    async (ctx) => {
      const body = await sitemap.file(Number.parseInt(ctx.state.input.params.file, 10));
      if (!body) throw AppError.notFound('Sitemap file');
      ctx.set('Cache-Control', 'no-cache');
      ctx.type = 'application/xml; charset=utf-8';
      ctx.body = body;
    },
  );

  const robots = robotsTxt(shop);
  section.get(
    '/site/robots.txt',
    {
      operationId: 'getRobotsTxt',
      summary: 'robots.txt (served at /robots.txt)',
      ok: {
        description: 'The file, naming the sitemap.',
        mediaType: 'text/plain',
        headers: ['Cache-Control'],
      },
      noDatabase: true,
    },
    (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=3600');
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = robots;
    },
  );

  /** The part on sale under `id` (any case), or undefined: a malformed id names no part either. */
  async function knownPart(id: string): Promise<Part | undefined> {
    if (!/^[a-fA-F0-9]{24}$/.test(id)) return undefined;
    try {
      const answer = catalogue.peekPart(id) ?? (await catalogue.partAnswer(id));
      return JSON.parse(answer.body.toString('utf8')) as Part;
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return undefined;
      throw err;
    }
  }

  function apiUrl(ctx: AppContext): string {
    // Koa 3's ctx.origin is the Origin header: the address this request reached is built here.
    return trimSlash(env.PUBLIC_API_URL ?? `${ctx.protocol}://${ctx.host}`);
  }
}
