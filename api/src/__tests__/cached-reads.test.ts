import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import Router from '@koa/router';
import Koa from 'koa';
import type { Part } from '@motoparts/contracts';
import { CachedReads } from '../http/cached-reads';
import { taggedJson } from '../lib/catalog-cache';
import { seedDatabase } from '../seed';
import { call, insertPart, startTestApp, type Res, type TestApp } from './support/harness';

// The hot public reads are answered from their cache before the router (http/cached-reads.ts).
// What a shortcut answers must be exactly what the route answers, and it must answer nothing else.

describe('the shortcut itself', () => {
  let server: ReturnType<Koa['listen']>;
  let base = '';
  let counted = 0;
  const entry = { ...taggedJson([{ kept: true }]), total: 42, ids: [], anyPart: false, readAt: 0 };

  beforeAll(async () => {
    const reads = new CachedReads();
    reads.add('/list', {
      count: () => {
        counted++;
        return Promise.resolve();
      },
      answer: (ctx) => {
        if (ctx.query.page === 'bad') throw new Error('a query the route refuses');
        return ctx.query.page === '2' ? { entry, page: { page: 2, limit: 10 } } : undefined;
      },
    });
    reads.add('/items/:id', { answer: (_ctx, id) => (id === 'kept' ? { entry } : undefined) });
    // Routes that answer differently, so the test sees which one answered.
    const router = new Router();
    router.get('/list', (ctx) => void (ctx.body = 'route'));
    router.post('/list', (ctx) => void (ctx.body = 'route'));
    router.get('/items/:id', (ctx) => void (ctx.body = 'route'));
    router.get('/items/:id/more', (ctx) => void (ctx.body = 'route'));
    const app = new Koa();
    app.use(reads.middleware());
    app.use(router.routes());
    server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const get = (path: string, init?: RequestInit) => fetch(base + path, init);

  it('answers a GET hit with the entry, its ETag and page headers, counted against the limit', async () => {
    const res = await get('/list?page=2&limit=10');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(entry.body.toString());
    expect(res.headers.get('etag')).toBe(entry.etag);
    expect(res.headers.get('x-total-count')).toBe('42');
    expect(res.headers.get('link')).toBe(
      '</list?limit=10&page=1>; rel="first", </list?limit=10&page=1>; rel="prev", ' +
        '</list?limit=10&page=3>; rel="next", </list?limit=10&page=5>; rel="last"',
    );
    expect(counted).toBe(1);
    const notModified = await get('/list?page=2&limit=10', { headers: { 'if-none-match': entry.etag } });
    expect(notModified.status).toBe(304);
    expect(counted).toBe(2);
    expect((await (await get('/items/kept')).json()) as unknown).toEqual([{ kept: true }]);
  });

  it('leaves misses, refused queries, other methods and other paths to the route', async () => {
    const before = counted;
    for (const [method, path] of [
      ['GET', '/list?page=1'],
      ['GET', '/list?page=bad'],
      ['POST', '/list?page=2'],
      ['HEAD', '/list?page=2'],
      ['GET', '/items/other'],
      ['GET', '/items/kept/more'],
    ] as const) {
      const res = await get(path, { method });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 200 });
      if (method !== 'HEAD') expect({ path, text: await res.text() }).toEqual({ path, text: 'route' });
    }
    // Only the shortcut's own answers count here; the route counts its own.
    expect(counted).toBe(before);
  });
});

describe('the API answers a cached read as its route does', () => {
  let t: TestApp;
  const logLines: { reqId?: string; msg: string; method?: string; url?: string; status?: number }[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          logLines.push(JSON.parse(line) as (typeof logLines)[number]);
        done();
      },
    });
    t = await startTestApp(
      'cached_reads',
      { CATALOG_CACHE_TTL_MS: 'unlimited', RATE_LIMIT_LISTING: '19/60' },
      { logger: pino({ level: 'info' }, sink) },
    );
    await seedDatabase();
  });
  afterAll(() => t.close());

  /** Everything but the per-request headers. */
  const answerOf = (res: Res) => {
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => {
      if (k !== 'date' && k !== 'x-request-id') headers[k] = v;
    });
    return { status: res.status, headers, text: res.text };
  };
  const origin = { origin: 'http://localhost:3000' };

  it('the same status, body and headers (CORS included) from the cache as from the route, and 304s', async () => {
    const id = await insertPart({ availableQty: 5000 });
    // Each first read is a miss the route answers (and caches); the second is the cache's.
    for (const path of [
      '/parts?page=1&limit=5&sort=name',
      // Past the end: kept as the one empty page after the last, found through page 1's total.
      '/parts?page=999&limit=5&sort=name',
      `/parts/${id}`,
      `/parts/${id.toUpperCase()}`,
      '/review?page=1',
    ]) {
      const first = await call(t.base, 'GET', path, { headers: origin });
      const second = await call(t.base, 'GET', path, { headers: origin });
      expect(first.status).toBe(200);
      expect(answerOf(second)).toEqual(answerOf(first));
      expect(second.headers.get('access-control-allow-origin')).toBe(origin.origin);
      const etag = second.headers.get('etag') ?? '';
      const revalidated = await call(t.base, 'GET', path, { headers: { ...origin, 'if-none-match': etag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.text).toBe('');
    }
    // A refused query on a cached path is still the route's 400.
    const refused = await call(t.base, 'GET', '/parts?page=0');
    expect(refused.status).toBe(400);
    expect((await call<Part>(t.base, 'GET', `/parts/${id}`)).body.availableQty).toBe(5000);
  });

  it('a cached answer has a request id (the caller’s when it is safe) and its log line', async () => {
    const path = '/parts?page=1&limit=3&sort=price';
    await call(t.base, 'GET', path); // the route's answer, now cached
    const mine = await call(t.base, 'GET', path, { headers: { 'x-request-id': 'trace-cached.1' } });
    const unsafe = await call(t.base, 'GET', path, { headers: { 'x-request-id': 'no spaces <here>' } });
    expect(mine.headers.get('x-request-id')).toBe('trace-cached.1');
    const made = unsafe.headers.get('x-request-id') ?? '';
    expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const notModified = await call(t.base, 'GET', path, {
      headers: { 'if-none-match': mine.headers.get('etag') ?? '', 'x-request-id': 'trace-cached.2' },
    });
    expect(notModified.status).toBe(304);
    const lineOf = (reqId: string) => logLines.find((l) => l.reqId === reqId && l.msg === 'request');
    expect(lineOf('trace-cached.1')).toMatchObject({ method: 'GET', url: path, status: 200 });
    expect(lineOf(made)).toMatchObject({ method: 'GET', url: path, status: 200 });
    expect(lineOf('trace-cached.2')).toMatchObject({ method: 'GET', url: path, status: 304 });
  });

  it('counts cached answers against the listing limit like any other', async () => {
    // 19 a minute from this address; the tests above used 14 of them (part reads are not counted).
    const results: number[] = [];
    for (let i = 0; i < 8; i++)
      results.push((await call(t.base, 'GET', '/parts?page=1&limit=5&sort=name')).status);
    expect(results).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  });
});
