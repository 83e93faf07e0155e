#!/usr/bin/env node
// On-demand benchmark of POST /order at 10 connections: this checkout's API against the API of a
// baseline commit (default: the last commit before the crash-consistent stock journal), built from
// `git archive` into a temp dir and measured in the same run against the same FerretDB process
// (one database each). Rounds alternate baseline / current so machine noise hits both alike.
//   npx tsc -b api && node bench/api/orders.mjs   (BENCH_SECONDS=5 BENCH_ROUNDS=2 BENCH_BASELINE_REF=…)
import { spawn } from 'node:child_process';
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
import { buildBaseline, readsWireNames, useWireNames, waitReady } from './support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = 10;
const baselineRef = process.env.BENCH_BASELINE_REF ?? '90169b4';

ensureTools();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'motoparts-bench-orders-'));
const dbPort = await freePort();
const ports = { db: dbPort, stripe: await freePort(), authEmulator: await freePort() };
const baseEnv = {
  ...process.env,
  ...serviceEnv(ports),
  NODE_ENV: 'production',
  // Production's code paths against the local stand-ins, which production refuses unless told.
  ALLOW_LOCAL_SERVICES: '1',
  // No mail server in a bench: production starts without SMTP_URL only when told.
  MAIL_DISABLED: '1',
  // Ten connections from one address place thousands of orders: the per-account order limit
  // would answer 429 instead of doing the work measured (the baseline had none).
  RATE_LIMIT_ORDER: '0/60',
  LOG_LEVEL: 'warn',
};
const baselineServer = buildBaseline(baselineRef, path.join(tmp, 'baseline'));
const currentServer = path.join(root, 'api/dist/server.js');

const { loadEnv } = require(path.join(root, 'api/dist/lib/env.js'));
const apiEnv = loadEnv(baseEnv);
const customer = (i) => ({
  uid: `bench-order-${i}`,
  email: `bench-order-${i}@motoparts.test`,
  name: `Bench ${i}`,
});
// The baseline's tokens name the account by email; this checkout's by Firebase uid, for an account
// record that must exist (the seed below writes one per customer).
const baselineSign = require(path.join(path.dirname(baselineServer), 'lib/tokens.js')).signApiToken;
const currentSign = require(path.join(root, 'api/dist/lib/tokens.js')).signApiToken;
const tokens = {
  baseline: Array.from({ length: connections }, (_, i) =>
    baselineSign(apiEnv, { email: customer(i).email, name: customer(i).name, admin: false }),
  ),
  current: Array.from({ length: connections }, (_, i) =>
    currentSign(apiEnv, { ...customer(i), admin: false, epoch: 0 }),
  ),
};

const ferret = await startFerret({ port: dbPort, dataDir: path.join(tmp, 'db') });
const children = [];

async function seed(uri, { accounts }) {
  const mongoose = require(path.join(root, 'node_modules/mongoose'));
  const conn = await mongoose.createConnection(uri, { maxPoolSize: 1 }).asPromise();
  const ids = [];
  for (let i = 0; i < 8; i++) {
    const _id = new mongoose.Types.ObjectId();
    await conn.db.collection('parts').insertOne({
      _id,
      name: `Bench part ${i}`,
      slug: `bench-part-${i}`,
      text: 'A part for the order benchmark.',
      img: '/images/parts/test.svg',
      priceCents: 1000 + i,
      minOrderQty: 100,
      availableQty: 1_000_000_000,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    ids.push(String(_id));
  }
  if (accounts) {
    const now = new Date();
    await conn.db.collection('users').insertMany(
      Array.from({ length: connections }, (_, i) => {
        const { uid, email, name } = customer(i);
        return { _id: uid, email, name, role: 'user', sessionEpoch: 0, createdAt: now, updatedAt: now };
      }),
    );
  }
  await conn.close();
  return ids;
}

async function startApi(server, db, extra = {}) {
  const port = await freePort();
  const uri = `mongodb://127.0.0.1:${dbPort}/${db}`;
  const baseline = server === baselineServer;
  const partIds = await seed(uri, { accounts: !baseline });
  if (readsWireNames(server)) await useWireNames(uri);
  const child = spawn(process.execPath, [server], {
    env: { ...baseEnv, MONGODB_URI: uri, PORT: String(port), ...extra },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  await waitForPort(port, { child });
  await waitReady(`http://127.0.0.1:${port}`, { tries: 300 });
  return { base: `http://127.0.0.1:${port}`, partIds, tokens: baseline ? tokens.baseline : tokens.current };
}

async function measure(api, { withKey = false } = {}) {
  let n = 0;
  const requests = api.tokens.map((token) => ({
    method: 'POST',
    path: '/order',
    setupRequest: (req) => ({
      ...req,
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(withKey ? { 'idempotency-key': `bench-${process.pid}-${n++}` } : {}),
      },
      body: JSON.stringify({ partsId: api.partIds[n++ % api.partIds.length], qty: 100 }),
    }),
  }));
  const r = await autocannon({ url: api.base, connections, duration: seconds, requests });
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx + r.errors };
}

try {
  const baseline = await startApi(baselineServer, 'bench_baseline');
  // The cap is off so every request places an order, as in the baseline.
  const current = await startApi(currentServer, 'bench_current', {
    MAX_OPEN_ORDERS: '0',
    MAX_UNVERIFIED_OPEN_ORDERS: '0',
  });
  const keyed = await startApi(currentServer, 'bench_keyed', {
    MAX_OPEN_ORDERS: '0',
    MAX_UNVERIFIED_OPEN_ORDERS: '0',
  });
  // Warm-up (JIT, connection) for each, not measured.
  for (const api of [baseline, current, keyed]) await measure(api);
  const rows = { baseline: [], current: [], keyed: [] };
  for (let i = 0; i < rounds; i++) {
    rows.baseline.push(await measure(baseline));
    rows.current.push(await measure(current));
    rows.keyed.push(await measure(keyed, { withKey: true }));
  }
  const mean = (list, k) => list.reduce((s, r) => s + r[k], 0) / list.length;
  const base = mean(rows.baseline, 'rps');
  console.log(
    `\nPOST /order, ${connections} connections, ${seconds} s × ${rounds} rounds each; baseline ${baselineRef}; ` +
      `${os.cpus().length} CPUs, node ${process.version}`,
  );
  for (const [name, list] of Object.entries(rows)) {
    const label = {
      baseline: `baseline (${baselineRef})`,
      current: 'journal (this checkout)',
      keyed: 'journal + Idempotency-Key',
    }[name];
    console.log(
      `${label.padEnd(28)} ${mean(list, 'rps').toFixed(0).padStart(6)} req/s  p99 ${mean(list, 'p99').toFixed(0).padStart(4)} ms  ` +
        `ratio ${(mean(list, 'rps') / base).toFixed(2)}  (per round: ${list.map((r) => r.rps.toFixed(0)).join(', ')} req/s` +
        `${list.some((r) => r.non2xx) ? `; non-2xx ${list.map((r) => r.non2xx).join(', ')}` : ''})`,
    );
  }
} finally {
  for (const c of children) {
    c.kill('SIGTERM');
    await new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r)));
  }
  await stopChild(ferret);
  rmSync(tmp, { recursive: true, force: true });
}
