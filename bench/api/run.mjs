#!/usr/bin/env node
// On-demand API benchmark (not part of `npm test`): GET /parts, GET /parts/:id and POST /order
// against the real API process and its own FerretDB, beside a bare @koa/router hello route
// measured in the same run. Prints req/s, p50/p99 and the ratio to the baseline.
//   npx tsc -b api && node bench/api/run.mjs        (BENCH_SECONDS=10 BENCH_CONNECTIONS=10)
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  ensureTools,
  freePort,
  serviceEnv,
  startFerret,
  stopChild,
  waitForPort,
} from '../../scripts/services.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

ensureTools();
const ports = {
  db: await freePort(),
  stripe: await freePort(),
  authEmulator: await freePort(),
  api: await freePort(),
};
const helloPort = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-bench-'));
const env = {
  ...process.env,
  ...serviceEnv(ports),
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  PORT: String(ports.api),
};
Object.assign(process.env, env);

const ferret = await startFerret({ port: ports.db, dataDir });
const children = [];
try {
  // Seed and add the bench part before the API starts (one writer per embedded DB, guide §3).
  const { loadEnv } = require(path.join(root, 'api/dist/env.js'));
  const { connectDb, disconnectDb } = require(path.join(root, 'api/dist/db.js'));
  const { seedDatabase } = require(path.join(root, 'api/dist/seed.js'));
  const { PartModel } = require(path.join(root, 'api/dist/models/part.js'));
  const { signApiToken } = require(path.join(root, 'api/dist/lib/tokens.js'));
  const apiEnv = loadEnv(env);
  await connectDb(apiEnv);
  await seedDatabase();
  const part = await PartModel.create({
    name: 'Bench Part',
    slug: 'bench-part',
    text: 'For the benchmark.',
    img: '/images/parts/bench.svg',
    priceCents: 1250,
    qty: 100,
    availableQty: 1_000_000_000,
  });
  const partId = String(part._id);
  await disconnectDb();
  const token = signApiToken(apiEnv, { email: 'bench@motoparts.test', name: 'Bench', admin: false });

  const api = spawn('node', [path.join(root, 'api/dist/server.js')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(api);
  await waitForPort(ports.api, { child: api });
  // Wait for the database connection, not just the port.
  for (let i = 0; i < 100; i++) {
    const res = await fetch(`http://127.0.0.1:${ports.api}/health`).catch(() => undefined);
    if (res?.status === 200) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const hello = fork(path.join(here, 'hello-server.mjs'), [], {
    env: { ...process.env, PORT: String(helloPort) },
  });
  children.push(hello);
  await waitForPort(helloPort, { child: hello });

  const api_ = `http://127.0.0.1:${ports.api}`;
  const targets = [
    { name: 'hello (bare @koa/router)', url: `http://127.0.0.1:${helloPort}/hello` },
    { name: 'GET /parts', url: `${api_}/parts` },
    { name: 'GET /parts/:id', url: `${api_}/parts/${partId}` },
    {
      name: 'POST /order',
      url: `${api_}/order`,
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ partsId: partId, qty: 100 }),
    },
  ];

  const rows = [];
  for (const target of targets) {
    const { name, ...opts } = target;
    // A short warm-up so the JIT and the connection pool settle before measuring.
    await autocannon({ ...opts, connections, duration: 1 });
    const r = await autocannon({ ...opts, connections, duration: seconds });
    rows.push({
      name,
      rps: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors + r.non2xx,
    });
  }
  const base = rows[0].rps;
  console.log(
    `\nAPI benchmark: ${connections} connections, ${seconds} s per route, ${os.cpus().length} CPUs, node ${process.version}`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(26)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ` +
        `ratio ${(r.rps / base).toFixed(3)}${r.errors ? `  (non-2xx/errors: ${r.errors})` : ''}`,
    );
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  await stopChild(ferret);
  rmSync(dataDir, { recursive: true, force: true });
}
