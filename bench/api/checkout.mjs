#!/usr/bin/env node
// On-demand benchmark of POST /checkout (5 lines) against POST /order (1 line) on the scale data
// set (bench/seed-scale: 10,000 parts, 2,000 users, 50,000 orders), one API process with the
// image's node flags on a FerretDB of its own, both measured in the same run in alternating rounds.
// 10 workers, each request from the next of the seed's customers (their carts of 5 random parts
// are written straight into the database beforehand, so a checkout request is only the checkout).
// Prints requests a second, p99, the CPU time each request cost the API and its FerretDB (from
// /proc: on two shared cores req/s moves with the hour, CPU per request much less), and the
// checkout's ratio to the single order in both: the aim is a 5-line checkout at most 2× the cost
// of one order.
//   npx tsc -b api && node bench/api/checkout.mjs        (BENCH_SECONDS=8 BENCH_ROUNDS=3 BENCH_CPU_PROF=dir)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  ensureTools,
  freePort,
  serviceEnv,
  startFerret,
  stopChild,
  waitForPort,
} from '../../scripts/services.mjs';
import { customerTokens, loadApiModels, seedScale, uidOf } from '../seed-scale/seed.mjs';
import { apiNodeArgs, cpuMicros, waitReady } from './support.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const WORKERS = 10;
const LINES = 5;
const CUSTOMERS = 1998;

ensureTools();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'motoparts-bench-checkout-'));
const children = [];

/** The p-th percentile of sorted latencies (ms). */
const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

/** `WORKERS` loops sending `request(i)` for `seconds`; latencies, statuses, CPU per request. */
async function drive(request, pids) {
  const cpu0 = pids.map(cpuMicros);
  const latencies = [];
  const statuses = new Map();
  const until = Date.now() + seconds * 1000;
  let next = 0;
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (Date.now() < until) {
        const started = performance.now();
        const res = await request(next++);
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const [apiMs, dbMs] = pids.map((pid, i) => (cpuMicros(pid) - cpu0[i]) / 1000 / latencies.length);
  return {
    apiMs,
    dbMs,
    rps: latencies.length / seconds,
    p99: percentile(latencies, 99),
    statuses: Object.fromEntries(statuses),
  };
}

try {
  const dbPort = await freePort();
  const ferret = await startFerret({ port: dbPort, dataDir: path.join(tmp, 'db') });
  children.push(ferret);
  const uri = `mongodb://127.0.0.1:${dbPort}/motoparts-scale`;
  await seedScale({ uri, log: () => {} });
  const { mongoose, PartModel } = loadApiModels();
  await mongoose.connect(uri, { maxPoolSize: 1 });
  // 200 parts with plenty of stock and a minimum of 100, so no request is refused for stock.
  const pool = (await PartModel.find({}, { _id: 1, priceCents: 1 }).limit(200).lean()).map((p) => ({
    id: String(p._id),
    priceCents: p.priceCents,
  }));
  await PartModel.updateMany(
    { _id: { $in: pool.map((p) => p.id) } },
    { $set: { availableQty: 100_000_000, minOrderQty: 100 } },
  );
  await mongoose.disconnect();

  const port = await freePort();
  const env = {
    ...process.env,
    ...serviceEnv({ db: dbPort, stripe: await freePort(), authEmulator: await freePort() }),
    MONGODB_URI: uri,
    NODE_ENV: 'production',
    ALLOW_LOCAL_SERVICES: '1',
    // No mail server in a bench: production starts without SMTP_URL only when told.
    MAIL_DISABLED: '1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ORDER: '0/60',
    RATE_LIMIT_CHECKOUT: '0/60',
    MAX_OPEN_ORDERS: '0',
    // The seed's customers are not verified in Firebase: the lower cap of unverified accounts is off.
    MAX_UNVERIFIED_OPEN_ORDERS: '0',
    PORT: String(port),
  };
  // BENCH_CPU_PROF=<dir>: the API writes a V8 CPU profile there when it stops.
  const prof = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const api = spawn('node', [...apiNodeArgs(), ...prof, path.join(root, 'api/dist/server.js')], {
    // Its own process group, which stopChild signals as a whole.
    detached: true,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(api);
  await waitForPort(port, { child: api });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(base);
  const { loadEnv } = require(path.join(root, 'api/dist/lib/env.js'));
  const { signApiToken } = require(path.join(root, 'api/dist/lib/tokens.js'));
  const tokens = customerTokens(signApiToken, loadEnv(env), CUSTOMERS);
  const uids = tokens.map((_, i) => uidOf(i + 1));

  /** Every customer's cart: 5 random parts of the pool at 100 pieces, at today's price. */
  async function fillCarts() {
    const conn = await mongoose.createConnection(uri, { maxPoolSize: 1 }).asPromise();
    const carts = conn.db.collection('carts');
    await carts.deleteMany({});
    await carts.insertMany(
      uids.map((uid) => ({
        _id: uid,
        v: 1,
        lines: Array.from({ length: LINES }, (_, k) => {
          const part =
            pool[(uid.length * 7 + k * 13 + Math.floor(Math.random() * pool.length)) % pool.length];
          return { partId: part.id, quantity: 100, unitPriceCents: part.priceCents };
        }).filter((l, i, lines) => lines.findIndex((m) => m.partId === l.partId) === i),
      })),
    );
    await conn.close();
  }

  const post = (pathname, token, body) =>
    fetch(`${base}${pathname}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  const pids = [api.pid, ferret.pid];
  const results = { order: [], checkout: [] };
  for (let round = 0; round < rounds; round++) {
    results.order.push(
      await drive(
        (i) =>
          post('/order', tokens[i % CUSTOMERS], {
            partsId: pool[Math.floor(Math.random() * pool.length)].id,
            qty: 100,
          }),
        pids,
      ),
    );
    await fillCarts();
    results.checkout.push(
      await drive(
        (i) => post('/checkout', tokens[i % CUSTOMERS], { address: '1 Bench Street', phone: '+1 555 0100' }),
        pids,
      ),
    );
  }
  const mean = (list, key) => list.reduce((s, r) => s + r[key], 0) / list.length;
  const [order, checkout] = [results.order, results.checkout];
  const cpu = (list) => mean(list, 'apiMs') + mean(list, 'dbMs');
  const cpuText = (list) =>
    `CPU per request: API ${mean(list, 'apiMs').toFixed(2)} ms, FerretDB ${mean(list, 'dbMs').toFixed(2)} ms`;
  console.log(
    `\nPOST /order vs POST /checkout (${LINES} lines), ${WORKERS} workers, ${seconds} s × ${rounds} rounds each; ${os.cpus().length} CPUs, node ${process.version}`,
  );
  console.log(
    `order     ${mean(order, 'rps').toFixed(0)} req/s  p99 ${mean(order, 'p99').toFixed(0)} ms  ${cpuText(order)}  (rounds ${order.map((r) => r.rps.toFixed(0)).join(', ')}; ${JSON.stringify(order.at(-1).statuses)})`,
  );
  console.log(
    `checkout  ${mean(checkout, 'rps').toFixed(0)} req/s  p99 ${mean(checkout, 'p99').toFixed(0)} ms  ${cpuText(checkout)}  (rounds ${checkout.map((r) => r.rps.toFixed(0)).join(', ')}; ${JSON.stringify(checkout.at(-1).statuses)})`,
  );
  console.log(
    `a checkout costs ${(cpu(checkout) / cpu(order)).toFixed(2)}× an order in CPU, ${(mean(order, 'rps') / mean(checkout, 'rps')).toFixed(2)}× in throughput and ${(mean(checkout, 'p99') / mean(order, 'p99')).toFixed(2)}× in p99 (aim: ≤ 2×)`,
  );
} finally {
  // The API before its database: it closes its connection as it stops (and writes its profile).
  for (const child of children.reverse()) await stopChild(child);
  rmSync(tmp, { recursive: true, force: true });
}
