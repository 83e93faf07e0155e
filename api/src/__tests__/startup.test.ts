import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import mongoose from 'mongoose';
import { buildApi, freePort, got, kill, startApi, startFerret, type ApiProcess } from './support/faults';

// The API process reports ready (/health 200) only once its in-memory catalogue is loaded, so no
// shopper's first request pays for the scan of the whole catalogue.

jest.setTimeout(120_000);

let ferret: ChildProcess;
let dataDir: string;
let api: ApiProcess | undefined;
let dbUri: string;

beforeAll(async () => {
  buildApi();
  const port = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-startup-'));
  ferret = await startFerret(port, dataDir);
  dbUri = `mongodb://127.0.0.1:${port}/startup`;
  const conn = await mongoose.createConnection(dbUri, { maxPoolSize: 1 }).asPromise();
  const now = new Date();
  await got(conn.db)
    .collection('parts')
    .insertMany(
      Array.from({ length: 2000 }, (_, i) => ({
        name: `Startup part ${String(i).padStart(4, '0')}`,
        slug: `startup-part-${i}`,
        text: 'A part for the start-up test.',
        img: '/images/parts/test.svg',
        priceCents: 100 + i,
        minOrderQty: 100,
        availableQty: 1000,
        createdAt: now,
        updatedAt: now,
      })),
    );
  await conn.close();
});

afterAll(async () => {
  if (api) await kill(api.child);
  await kill(ferret);
  rmSync(dataDir, { recursive: true, force: true });
});

it('answers /health 200 only after the catalogue is loaded, then serves it', async () => {
  api = await startApi(dbUri, { LOG_LEVEL: 'info' });
  // startApi resolved on the first 200: by then the log already says the catalogue is loaded.
  const loaded = api
    .output()
    .split('\n')
    .filter((line) => line.includes('catalogue loaded'));
  expect(loaded).toHaveLength(1);
  const res = await fetch(`${api.base}/parts?limit=1`);
  expect(res.status).toBe(200);
  expect(res.headers.get('x-total-count')).toBe('2000');
});
