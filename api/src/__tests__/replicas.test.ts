import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Part } from '@motoparts/contracts';
import { account, uniqueEmail, type Account } from './support/auth';
import {
  buildApi,
  eventually,
  freePort,
  kill,
  startApi,
  startFerret,
  type ApiProcess,
} from './support/faults';
import { call } from './support/harness';

// Two API processes (the compiled server, as deployed) against ONE database, as N replicas run in
// production. The database here is a FerretDB of this file's own (free port, temp dir), each API
// with its one connection. That is safe because every write in this file is sequential: FerretDB
// v1 applies an update as read-then-write, so two connections racing conditional updates on the
// same document could both succeed; production replicas therefore run on MongoDB, where each
// single-document update is atomic across connections. What this test shows is what replicas
// share and how stale one replica's catalogue cache may be after another's write: at most the TTL
// that applies with an external database (CATALOG_CACHE_TTL_MS, 2000 ms by default).
const STALENESS_BOUND_MS = 2000;

/** Polls until the predicate holds, bounded by attempts (waits on a condition, not a time). */
async function until(what: string, fn: () => Promise<boolean>): Promise<void> {
  if (!(await eventually(fn))) throw new Error(`gave up waiting for ${what}`);
}

let dataDir: string;
let ferret: ChildProcess;
let a: ApiProcess;
let b: ApiProcess;
let admin: Account;

beforeAll(async () => {
  // The compiled server is what runs in the image; `tsc -b` is incremental (a no-op when fresh).
  buildApi();
  const dbPort = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-replicas-'));
  ferret = await startFerret(dbPort, dataDir);

  const adminEmail = uniqueEmail('replica-admin');
  const replica = {
    // An external database, as in production: the default TTL for other writers applies, and
    // the database's read models, as replicas sharing it need.
    MONGODB_EMBEDDED: 'false',
    CATALOG_CACHE_TTL_MS: '',
    MONGODB_POOL_SIZE: '1',
    ORDER_RECOVERY_INTERVAL_MS: '30000',
    MONGODB_SERVER_SELECTION_TIMEOUT_MS: '2000',
    ADMIN_EMAILS: adminEmail,
  };
  const uri = `mongodb://127.0.0.1:${dbPort}/mp_replicas`;
  [a, b] = await Promise.all([startApi(uri, replica), startApi(uri, replica)]);
  admin = await account(a.base, adminEmail, 'Replica Admin');
});

afterAll(async () => {
  await Promise.all([a, b].filter(Boolean).map((r) => kill(r.child, 'SIGTERM')));
  if (ferret) await kill(ferret, 'SIGTERM');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const auth = () => ({ headers: { authorization: `Bearer ${admin.token}` } });
const qtyAt = async (r: ApiProcess, id: string) =>
  (await call<Part>(r.base, 'GET', `/parts/${id}`)).body.availableQty;
const listedQtyAt = async (r: ApiProcess, id: string) => {
  const res = await call<Part[]>(r.base, 'GET', '/parts?limit=100');
  return res.body.find((p) => p._id === id)?.availableQty;
};
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two API replicas on one database', () => {
  it("shows one replica's write through the other within the catalogue cache's staleness bound", async () => {
    // A token issued by one replica is accepted by the other (same JWT_SECRET, same users).
    const created = await call<{ part: Part }>(b.base, 'POST', '/parts', {
      ...auth(),
      body: {
        name: 'Replica test chain',
        text: 'A part written through replica B.',
        img: '/images/parts/test.svg',
        price: 19.5,
        qty: 100,
        availableQty: 500,
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.part._id;

    // Both replicas read (and so cache) the part.
    await until('replica A to list the new part', async () => (await listedQtyAt(a, id)) === 500);
    expect(await qtyAt(a, id)).toBe(500);
    expect(await qtyAt(b, id)).toBe(500);

    // A write through A: A itself shows it at once (its own writes invalidate its cache).
    const restocked = await call<Part>(a.base, 'PUT', `/restockQty/${id}`, {
      ...auth(),
      body: { quantity: 250 },
    });
    expect(restocked.status).toBe(200);
    expect(restocked.body.availableQty).toBe(750);
    expect(await qtyAt(a, id)).toBe(750);

    // B may still serve its cached copy, but never for longer than the bound: once the bound has
    // passed since the write was acknowledged, every read through B shows it.
    await pause(STALENESS_BOUND_MS + 100);
    expect(await qtyAt(b, id)).toBe(750);
    expect(await listedQtyAt(b, id)).toBe(750);

    // And the other way round, with a conditional write (it is checked in the database, not in
    // either cache): B takes stock away, A shows it within the bound.
    const reduced = await call<Part>(b.base, 'PUT', `/reduceQty/${id}`, {
      ...auth(),
      body: { quantity: 700 },
    });
    expect(reduced.body.availableQty).toBe(50);
    const refused = await call(a.base, 'PUT', `/reduceQty/${id}`, { ...auth(), body: { quantity: 100 } });
    expect(refused.status).toBe(409);
    await pause(STALENESS_BOUND_MS + 100);
    expect(await qtyAt(a, id)).toBe(50);

    // A deletion through A is a 404 through B within the bound.
    expect((await call(a.base, 'DELETE', `/parts/${id}`, auth())).status).toBe(200);
    await pause(STALENESS_BOUND_MS + 100);
    expect((await call(b.base, 'GET', `/parts/${id}`)).status).toBe(404);
  });

  it("follows one replica's part writes in the other's search index after its reload", async () => {
    const names = async (r: ApiProcess, q: string) =>
      (await call<Part[]>(r.base, 'GET', `/parts?q=${encodeURIComponent(q)}`)).body.map((p) => p.name);
    const inStockCount = async (r: ApiProcess, q: string) => {
      const res = await call<Part[]>(r.base, 'GET', `/parts?facets=true&q=${encodeURIComponent(q)}`);
      return (JSON.parse(res.headers.get('x-facets') ?? '{}') as { inStock?: { true: number } }).inStock
        ?.true;
    };
    const both = (what: string, check: (r: ApiProcess) => Promise<boolean>) =>
      Promise.all([a, b].map((r) => until(`${what} (${r === a ? 'A' : 'B'})`, () => check(r))));
    const part = {
      text: 'A sprocket written through replica B.',
      img: '/images/parts/test.svg',
      price: 42,
      qty: 100,
    };
    const created = await call<{ part: Part }>(b.base, 'POST', '/parts', {
      ...auth(),
      body: { ...part, name: 'Quasar Rear Sprocket', availableQty: 0 },
    });
    expect(created.status).toBe(201);
    const id = created.body.part._id;
    // A typo, and the words joined: both replicas find it once their catalogues have it.
    await both('the new part found', async (r) =>
      (await names(r, 'quasr rearsprocket')).includes('Quasar Rear Sprocket'),
    );
    expect(await inStockCount(a, 'quasar')).toBe(0);

    // Renamed through A: the old words go and the new ones come, on both.
    const edited = await call<Part>(a.base, 'PUT', `/parts/${id}`, {
      ...auth(),
      body: { ...part, name: 'Nebula Front Sprocket' },
    });
    expect(edited.status).toBe(200);
    await both('the rename followed', async (r) => {
      const found = await names(r, 'nebual front');
      const gone = await names(r, 'quasar');
      return found.includes('Nebula Front Sprocket') && gone.length === 0;
    });

    // Restocked through B: the in-stock count of the search moves on both.
    expect(
      (await call(b.base, 'PUT', `/restockQty/${id}`, { ...auth(), body: { quantity: 500 } })).status,
    ).toBe(200);
    await both('the stock change counted', async (r) => (await inStockCount(r, 'nebula')) === 1);

    // Deleted through A: found by neither.
    expect((await call(a.base, 'DELETE', `/parts/${id}`, auth())).status).toBe(200);
    await both('the part gone', async (r) => (await names(r, 'nebula sprocket')).length === 0);
  });

  it('shares accounts and profiles through the database: what one replica records, the other returns', async () => {
    const customer = await account(b.base, uniqueEmail('replica-customer'), 'Rep Customer');
    // The customer's token from B works on A; their profile written on A is read on B.
    const profile = await call(a.base, 'PUT', `/userInfo/${encodeURIComponent(customer.email)}`, {
      headers: { authorization: `Bearer ${customer.token}` },
      body: { location: 'Replica Road 1', phone: '+1 555 0100' },
    });
    expect(profile.status).toBe(200);
    const read = await call<{ location?: string }>(
      b.base,
      'GET',
      `/user/${encodeURIComponent(customer.email)}`,
      {
        headers: { authorization: `Bearer ${customer.token}` },
      },
    );
    expect(read.status).toBe(200);
    expect(read.body.location).toBe('Replica Road 1');
    expect(a.output()).not.toMatch(/"level":(50|60)/);
    expect(b.output()).not.toMatch(/"level":(50|60)/);
  });
});
