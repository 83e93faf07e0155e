import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import type { ChildProcess } from 'node:child_process';
import {
  buildApi,
  freePort,
  imageNodeArgs,
  kill,
  startApi,
  startFerret,
  type ApiProcess,
} from './support/faults';
import { insertPart } from './support/harness';

// What one anonymous client can make the API hold: the compiled server with the image's node
// flags (a 128 MB heap), in production mode, the listing limit lifted so that nothing but the
// memory bounds stands in the way, and a small cache budget. 5,000 distinct long URLs over the
// public reads (junk parameters, distinct searches, deep pages, unknown parts, over-long lines)
// must leave it alive, answering, and grown by less than its cache budget plus a margin for the
// garbage not yet collected. Before the caches were keyed by parsed queries and bounded in bytes,
// about 740 such requests from a few addresses killed it ("JavaScript heap out of memory").

const BUDGET_MB = 8;
/** The young generation growing to its 3 × 8 MB under load, and old-space garbage not yet collected. */
const MARGIN_MB = 24;
const REQUESTS = 5000;

let dataDir: string;
let ferret: ChildProcess;
let api: ApiProcess;

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]);
  if (!kb) throw new Error(`no VmRSS for ${pid}`);
  return kb / 1024;
}

beforeAll(async () => {
  buildApi();
  const port = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-memory-'));
  ferret = await startFerret(port, dataDir);
  const uri = `mongodb://127.0.0.1:${port}/mp_memory`;
  // A catalogue to search: pages of real parts, not only empty answers.
  await mongoose.connect(uri, { maxPoolSize: 1 });
  for (let i = 0; i < 120; i++) {
    await insertPart({
      name: `Brake pad ${i} ${['front', 'rear', 'sport'][i % 3]}`,
      text: `Pad number ${i} for testing.`,
    });
  }
  await mongoose.disconnect();
  api = await startApi(
    uri,
    {
      NODE_ENV: 'production',
      ALLOW_LOCAL_SERVICES: '1',
      STRIPE_TEST_MODE: '1',
      CACHE_BUDGET_MB: String(BUDGET_MB),
      RATE_LIMIT_LISTING: '0/60',
      RATE_LIMIT_LISTING_ACCOUNT: '0/60',
      LOG_LEVEL: 'error',
    },
    undefined,
    imageNodeArgs(),
  );
}, 120_000);

afterAll(async () => {
  if (api) await kill(api.child, 'SIGTERM');
  if (ferret) await kill(ferret);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The i-th hostile URL: distinct every time, most of them close to the 4 KB line limit. */
function hostileUrl(i: number): string {
  const junk = (n: number) => `${i.toString(36)}-${'j'.repeat(n)}`;
  const word = `w${i.toString(36).padStart(6, '0')}`;
  switch (i % 6) {
    case 0: // junk the route does not read, on a cached page
      return `/parts?junk${i}=${junk(3800)}&limit=24`;
    case 1: // a distinct search of the longest allowed text, with junk
      return `/parts?q=${word}+${'x'.repeat(90)}&sort=name&x=${junk(3600)}`;
    case 2: // deep pages of reviews and parts
      return `/review?page=${(i % 99_000) + 1}&pad=${junk(3800)}`;
    case 3:
      return `/parts?page=${(i % 99_000) + 1}&limit=${(i % 100) + 1}&pad=${junk(3700)}`;
    case 4: // unknown parts
      return `/parts/${i.toString(16).padStart(24, 'a')}?${junk(3800)}`;
    default: // over the line limit: refused before any work
      return `/parts?q=${junk(9000)}`;
  }
}

it('stays alive and within its cache budget under 5,000 distinct long URLs', async () => {
  // Warm up: the first answers of each route make their code and the snapshot's.
  for (let i = 0; i < 60; i++)
    await fetch(`${api.base}${hostileUrl(REQUESTS + i)}`).then((r) => r.arrayBuffer());
  const before = rssMb(api.child.pid ?? 0);
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < REQUESTS) {
      const res = await fetch(`${api.base}${hostileUrl(next++)}`);
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect(api.child.exitCode).toBeNull();
  expect((await fetch(`${api.base}/health`)).status).toBe(200);
  const grown = rssMb(api.child.pid ?? 0) - before;
  // Every request was answered, as the route would: pages, 404s for unknown parts, 414s.
  expect([...statuses.keys()].sort()).toEqual([200, 404, 414]);
  expect(statuses.get(414)).toBe(Math.floor(REQUESTS / 6));
  expect(grown).toBeLessThan(BUDGET_MB + MARGIN_MB);
});
