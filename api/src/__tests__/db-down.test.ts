import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Part } from '@motoparts/contracts';
import { PartModel } from '../parts/model';
import { seedDatabase } from '../seed';
import { freePort, kill as stop, startFerret } from './support/faults';
import { call, startTestApp, type TestApp } from './support/harness';

// This file runs its OWN FerretDB (free port, temp dir) so it can kill and restart it.
/** Polls until the predicate holds (bounded by attempts, not asserted on time). */
async function eventually(fn: () => Promise<boolean>, attempts = 120): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

let port: number;
let dataDir: string;
let ferret: ChildProcess;
let t: TestApp;

beforeAll(async () => {
  port = await freePort();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-dbdown-'));
  ferret = await startFerret(port, dataDir);
  t = await startTestApp('db_down', {
    MONGODB_URI: `mongodb://127.0.0.1:${port}/mp_test_db_down`,
    MONGODB_EMBEDDED: 'true',
    MONGODB_SERVER_SELECTION_TIMEOUT_MS: '500',
  });
  await seedDatabase();
});

afterAll(async () => {
  await t.close();
  await stop(ferret);
  rmSync(dataDir, { recursive: true, force: true });
});

it('answers 503 while the database is down and 200 again once it is back, without a restart', async () => {
  expect((await call(t.base, 'GET', '/health')).status).toBe(200);

  await stop(ferret);

  const health = await call(t.base, 'GET', '/health');
  expect(health.status).toBe(503);
  expect(health.body).toEqual({
    error: { code: 'SERVICE_UNAVAILABLE', message: 'The database is unreachable.' },
  });

  const parts = await call<{ error: { code: string; message: string } }>(t.base, 'GET', '/parts');
  expect(parts.status).toBe(503);
  expect(parts.body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(parts.body.error.message).toMatch(/database is unreachable/);

  const one = await call(t.base, 'GET', '/parts/0123456789abcdef01234567');
  expect(one.status).toBe(503);

  ferret = await startFerret(port, dataDir);

  expect(await eventually(async () => (await call(t.base, 'GET', '/health')).status === 200)).toBe(true);
  const back = await call<Part[]>(t.base, 'GET', '/parts');
  expect(back.status).toBe(200);
  // Everything the seed wrote is served again: nothing was lost while the database was away.
  expect(back.body.length).toBeGreaterThan(0);
  expect(back.body.length).toBe(await PartModel.countDocuments());
});
