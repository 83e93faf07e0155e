import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRoutes } from '../app';
import { createLogger } from '../lib/logger';
import { call, startTestApp, type TestApp } from './support/harness';

// The OpenAPI document is generated from the routes themselves (http/openapi.ts). These tests
// read the routes the Koa router really has and check that each one is in the document with the
// access it really requires and the shared error shape, and that the document is OpenAPI 3.1 in
// shape and served publicly.

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp('openapi');
});
afterAll(() => t.close());

type Access = 'public' | 'user' | 'admin' | 'firebase' | 'stripe';

/** Who may call each route (api/README.md, "Endpoints and who may call them"). */
const ACCESS: Record<string, Access> = {
  'GET /health': 'public',
  'GET /livez': 'public',
  'GET /openapi.json': 'public',
  'GET /parts': 'public',
  'GET /parts/:id': 'public',
  'POST /parts': 'admin',
  'PUT /parts/:id': 'admin',
  'DELETE /parts/:id': 'admin',
  'PUT /restockQty/:id': 'admin',
  'PUT /reduceQty/:id': 'admin',
  'PUT /increaseQty/:id': 'admin',
  'PUT /decreaseQty/:id': 'admin',
  'POST /import/parts': 'admin',
  'GET /export/parts.csv': 'admin',
  'GET /export/orders.csv': 'admin',
  'POST /order': 'user',
  'GET /orders': 'admin',
  'GET /order': 'user',
  'GET /order/:id': 'user',
  'DELETE /order/:id': 'user',
  'PATCH /order/:id': 'user',
  'PATCH /order/:id/status': 'admin',
  'POST /order/:id/refund': 'user',
  'POST /create-payment-intent': 'user',
  'POST /webhooks/stripe': 'stripe',
  'GET /review': 'public',
  'POST /review': 'user',
  'DELETE /review/:id': 'admin',
  'PUT /user/:email': 'firebase',
  'DELETE /session': 'user',
  'GET /user/:email': 'user',
  'PUT /userInfo/:email': 'user',
  'GET /user': 'admin',
  'PUT /user/admin/:email': 'admin',
  'DELETE /user/admin/:email': 'admin',
  'PUT /user/disabled/:email': 'admin',
  'DELETE /user/disabled/:email': 'admin',
  'DELETE /session/:email': 'admin',
  'GET /admin/:email': 'user',
  'GET /cart': 'user',
  'PUT /cart/lines/:partId': 'user',
  'DELETE /cart/lines/:partId': 'user',
  'POST /checkout': 'user',
  'GET /checkout/:id': 'user',
  'DELETE /checkout/:id': 'user',
  'PATCH /checkout/:id': 'user',
  'POST /checkout/:id/order-again': 'user',
  'GET /sales': 'admin',
  'POST /images': 'user',
  'GET /uploads/:file': 'public',
  'GET /site/parts/:id/head': 'public',
  'GET /site/sitemap.xml': 'public',
  'GET /site/sitemaps/:file': 'public',
  'GET /site/robots.txt': 'public',
  'POST /client-errors': 'public',
  'GET /client-errors': 'admin',
};

const SCHEME: Record<Access, string | undefined> = {
  public: undefined,
  user: 'apiToken',
  admin: 'apiToken',
  firebase: 'firebaseIdToken',
  stripe: 'stripeSignature',
};

interface Operation {
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema?: { $ref?: string } }> }
  >;
  'x-admin-only'?: boolean;
  tags?: string[];
  summary?: string;
}

interface Document {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, { type?: string; properties?: Record<string, unknown> }>;
    securitySchemes: Record<string, { type: string; scheme?: string; in?: string; name?: string }>;
  };
}

function build() {
  const routes = createRoutes({ env: t.env, logger: createLogger(t.env) });
  const registered = routes.router.stack.flatMap((layer) =>
    layer.methods.filter((m) => m !== 'HEAD').map((method) => ({ method, path: String(layer.path) })),
  );
  return { registered, doc: routes.openApi() as unknown as Document };
}

const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

describe('OpenAPI document', () => {
  it('lists every registered route once, with its access and the shared error answers', () => {
    const { registered, doc } = build();
    expect(registered.length).toBe(Object.keys(ACCESS).length);
    const documented = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    expect(documented).toBe(registered.length);

    for (const { method, path } of registered) {
      const name = `${method} ${path}`;
      const access = ACCESS[name];
      expect({ name, access }).toEqual({ name, access: expect.any(String) });
      const op = doc.paths[openApiPath(path)]?.[method.toLowerCase()];
      expect({ name, documented: op !== undefined }).toEqual({ name, documented: true });
      if (!op || !access) continue;

      const scheme = SCHEME[access];
      expect({ name, security: op.security ?? [] }).toEqual({
        name,
        security: scheme ? [{ [scheme]: [] }] : [],
      });
      expect({ name, adminOnly: op['x-admin-only'] === true }).toEqual({
        name,
        adminOnly: access === 'admin',
      });
      const codes = Object.keys(op.responses);
      expect({ name, codes }).toEqual({
        name,
        codes: expect.arrayContaining([
          '500',
          // A bearer token that is missing or no longer valid is a 401; a bad Stripe signature a 400.
          ...(scheme && scheme !== 'stripeSignature' ? ['401'] : []),
          ...(access === 'admin' ? ['403'] : []),
          ...(op.parameters?.length || op.requestBody ? ['400'] : []),
          ...(op.requestBody && scheme !== 'stripeSignature' ? ['413', '415'] : []),
        ]),
      });
      if (access === 'public')
        expect({ name, codes }).toEqual({ name, codes: expect.not.arrayContaining(['401']) });
      expect({ name, success: codes.filter((c) => /^2\d\d$/.test(c)).length }).toEqual({ name, success: 1 });

      for (const [code, response] of Object.entries(op.responses)) {
        if (Number(code) < 400) continue;
        const schema = response.content?.['application/json']?.schema;
        expect({ name, code, schema }).toEqual({
          name,
          code,
          schema: { $ref: '#/components/schemas/Error' },
        });
      }
    }
  });

  it('documents the path parameters, queries and bodies the routes validate', () => {
    const { doc } = build();
    for (const [path, ops] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const [method, op] of Object.entries(ops)) {
        const documented = (op.parameters ?? []).filter((p) => p.in === 'path');
        expect({ route: `${method} ${path}`, params: documented.map((p) => [p.name, p.required]) }).toEqual({
          route: `${method} ${path}`,
          params: inPath.map((name) => [name, true]),
        });
      }
    }
    const names = (op: Operation | undefined, where: string) =>
      (op?.parameters ?? []).filter((p) => p.in === where).map((p) => p.name);
    expect(names(doc.paths['/parts']?.get, 'query')).toEqual(
      expect.arrayContaining(['page', 'limit', 'q', 'sort', 'category', 'inStock']),
    );
    expect(names(doc.paths['/order']?.get, 'query')).toEqual(
      expect.arrayContaining(['user', 'page', 'limit']),
    );
    expect(names(doc.paths['/order']?.post, 'header')).toEqual(['Idempotency-Key']);
    expect(names(doc.paths['/webhooks/stripe']?.post, 'header')).toEqual(['Stripe-Signature']);
    // A photo upload is the photo's bytes; the hosted file is served as WebP.
    expect(Object.keys(doc.paths['/images']?.post?.requestBody?.content ?? {})).toEqual([
      'image/jpeg',
      'image/png',
      'image/webp',
    ]);
    expect(Object.keys(doc.paths['/uploads/{file}']?.get?.responses['200']?.content ?? {})).toEqual([
      'image/webp',
    ]);
    for (const [path, method] of [
      ['/parts', 'post'],
      ['/parts/{id}', 'put'],
      ['/order', 'post'],
      ['/order/{id}', 'patch'],
      ['/order/{id}/status', 'patch'],
      ['/create-payment-intent', 'post'],
      ['/review', 'post'],
      ['/userInfo/{email}', 'put'],
      ['/restockQty/{id}', 'put'],
    ] as const) {
      expect({
        path,
        method,
        body: Object.keys(doc.paths[path]?.[method]?.requestBody?.content ?? {}),
      }).toEqual({
        path,
        method,
        body: ['application/json'],
      });
    }
  });

  it('is OpenAPI 3.1 in shape, and every reference resolves', () => {
    const { doc } = build();
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toEqual(
      expect.objectContaining({ title: expect.any(String), version: expect.any(String) }),
    );
    expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
    for (const [path, ops] of Object.entries(doc.paths)) {
      expect(path).toMatch(/^\/[\w\-./{}]*$/);
      for (const [method, op] of Object.entries(ops)) {
        expect(['get', 'put', 'post', 'delete', 'patch']).toContain(method);
        for (const [code, response] of Object.entries(op.responses)) {
          expect(code).toMatch(/^[1-5]\d\d$/);
          expect(typeof response.description).toBe('string');
        }
        for (const requirement of op.security ?? []) {
          for (const scheme of Object.keys(requirement))
            expect(doc.components.securitySchemes).toHaveProperty(scheme);
        }
      }
    }
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      properties: { error: expect.any(Object) },
    });
    expect(doc.components.securitySchemes.apiToken).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    const refs = JSON.stringify(doc).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of new Set(refs)) {
      const name = /#\/components\/schemas\/(\w+)/.exec(ref)?.[1];
      expect({ ref, resolves: name !== undefined && name in doc.components.schemas }).toEqual({
        ref,
        resolves: true,
      });
    }
  });

  it('is served at GET /openapi.json without a token, with an ETag and a max-age', async () => {
    const res = await call<Document>(t.base, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(Object.keys(res.body.paths).sort()).toEqual(Object.keys(build().doc.paths).sort());
    const etag = res.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call(t.base, 'GET', '/openapi.json', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('the served document for client generators', () => {
  it('passes Redocly’s recommended rules with no error and no warning', async () => {
    const res = await fetch(`${t.base}/openapi.json`);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      writeFileSync(file, await res.text());
      // Redocly is an ES module, which Jest's module system cannot load: a child process runs it.
      const lint = spawnSync(
        process.execPath,
        [path.resolve(__dirname, '../../../scripts/lint-openapi.mjs'), file],
        {
          encoding: 'utf8',
        },
      );
      expect(lint.stdout.trim()).toBe('0 problem(s)');
      expect(lint.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names every operation once, tags it with a described resource and says where it is served', async () => {
    const doc = (await (await fetch(`${t.base}/openapi.json`)).json()) as {
      servers?: unknown[];
      tags?: { name: string; description: string }[];
      paths: Record<string, Record<string, { operationId?: string; tags?: string[] }>>;
    };
    const operations = Object.values(doc.paths).flatMap((p) => Object.values(p));
    const ids = operations.map((o) => o.operationId);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const tags = new Set(doc.tags?.map((tag) => tag.name));
    expect(operations.every((o) => o.tags?.length === 1 && tags.has(o.tags[0] ?? ''))).toBe(true);
    expect(doc.servers).toHaveLength(1);
  });
});
