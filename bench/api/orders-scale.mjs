#!/usr/bin/env node
// On-demand benchmark of POST /order on the scale data set (bench/seed-scale: 10,000 parts, 2,000
// users, 50,000 orders), this checkout's API against the API of a baseline commit, each on a
// database of its own loaded with the same data in one FerretDB (so two FerretDB processes' own
// spread does not enter the ratio; only one API runs at a time, so each round's FerretDB CPU is its
// build's), in alternating rounds (each build first in every other one) so machine noise hits both
// alike. 10 connections, 50 customers (one per connection), a random part each time, the
// open-order cap off (every request that finds stock places an order). Beside req/s and p99 it
// prints the orders placed per second and the CPU time each order cost the API and its FerretDB
// (from /proc): on two shared cores req/s moves with the hour, CPU per order much less. Last, each
// round's pair and their median: one round's ratio can be anywhere from 0.6 to 1.6.
//   npx tsc -b api && node bench/api/orders-scale.mjs   (BENCH_SECONDS=8 BENCH_ROUNDS=3 BENCH_BASELINE_REF=HEAD~1)
// BENCH_BASELINE_NODE_ARGS runs the baseline's node with other flags (BENCH_BASELINE_REF=HEAD and
// this flag: the same code, two ways of running it). BENCH_MAX_OPEN_ORDERS=5 runs both with the
// open-order cap on, as `npm start` does (default 0: off); each request then comes from the next
// of BENCH_CUSTOMERS customers (default 50; up to 1998 of the seed's), so that none reaches the cap.
// BENCH_ROUTE=webhook measures Stripe's webhook instead: each build first places orders for a
// while, then gets a signed `payment_intent.succeeded` for each (one order per request, never a
// repeat), as Stripe sends them once customers have paid.
// BENCH_ROUTE=sales measures the admins' Overview instead, on this checkout only (no baseline):
// GET /sales?days=90 against GET /orders?page=1 in alternating rounds, as the admin, 10
// connections each; the ratio is the list's req/s over the Overview's (target ≤ 5).
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
import {
  ADMIN_EMAIL,
  ADMIN_INDEX,
  customerTokens,
  loadApiModels,
  seedScale,
  uidOf,
} from '../seed-scale/seed.mjs';
import {
  apiNodeArgs,
  buildBaseline,
  cpuMicros,
  readsWireNames,
  useWireNames,
  waitReady,
} from './support.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const baselineRef = process.env.BENCH_BASELINE_REF ?? 'HEAD~1';
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 50);
const openCap = process.env.BENCH_MAX_OPEN_ORDERS ?? '0';
const connections = 10;
const route = process.env.BENCH_ROUTE ?? 'order';
const signer = new (require('stripe'))('sk_test_bench');

/** CPU time a process has used, in ms. */
const cpuMs = (pid) => cpuMicros(pid) / 1000;

ensureTools();
const tmp = mkdtempSync(path.join(os.tmpdir(), 'motoparts-bench-orders-scale-'));
const children = [];
const dbPort = await freePort();
const ferret = await startFerret({ port: dbPort, dataDir: path.join(tmp, 'db') });
let stacksStarted = 0;

/**
 * A database of the shared FerretDB with the scale data set, and an API on it; `server` is the
 * API's `server.js`.
 */
async function startStack(name, server, nodeArgs = apiNodeArgs()) {
  const uri = `mongodb://127.0.0.1:${dbPort}/motoparts-scale-${++stacksStarted}`;
  await seedScale({ uri, log: () => {} });
  if (readsWireNames(server)) await useWireNames(uri);
  const { mongoose, PartModel } = loadApiModels();
  await mongoose.connect(uri, { maxPoolSize: 1 });
  const partIds = (await PartModel.find({}, { _id: 1 }).lean()).map((p) => String(p._id));
  await mongoose.disconnect();
  const port = await freePort();
  const env = {
    ...process.env,
    ...serviceEnv({ db: dbPort, stripe: await freePort(), authEmulator: await freePort() }),
    MONGODB_URI: uri,
    NODE_ENV: 'production',
    // Production's code paths against the local stand-ins, which production refuses unless told.
    ALLOW_LOCAL_SERVICES: '1',
    // No mail server in a bench: production starts without SMTP_URL only when told.
    MAIL_DISABLED: '1',
    LOG_LEVEL: 'warn',
    // One load generator stands for many shoppers: no per-account order limit and, unless told,
    // no open-order cap.
    RATE_LIMIT_ORDER: '0/60',
    MAX_OPEN_ORDERS: openCap,
    // The seed's customers are not verified in Firebase: they get the cap verified accounts have.
    MAX_UNVERIFIED_OPEN_ORDERS: '0',
    PORT: String(port),
  };
  // The image's node flags (deploy/api.Dockerfile) unless told, as bench/api/run.mjs runs it.
  const api = spawn('node', [...nodeArgs, server], {
    // Its own process group, which stopChild signals as a whole.
    detached: true,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(api);
  await waitForPort(port, { child: api });
  // Ready once the catalogue and the order list are read.
  await waitReady(`http://127.0.0.1:${port}`);
  const { loadEnv } = require(path.join(root, 'api/dist/lib/env.js'));
  const { signApiToken } = require(path.join(root, 'api/dist/lib/tokens.js'));
  const apiEnv = loadEnv(env);
  const tokens = customerTokens(signApiToken, apiEnv, CUSTOMERS);
  const adminToken = signApiToken(apiEnv, {
    uid: uidOf(ADMIN_INDEX),
    email: ADMIN_EMAIL,
    name: 'Scale Admin',
    admin: true,
    epoch: 0,
  });
  const stack = {
    adminToken,
    name,
    base: `http://127.0.0.1:${port}`,
    apiPid: api.pid,
    dbPid: ferret.pid,
    partIds,
    tokens,
  };
  return { ...stack, uri, secret: env.STRIPE_WEBHOOK_SECRET, unpaid: [] };
}

/**
 * For the webhook rows: places orders on `stack` for `forSeconds` (POST /order at 10 connections),
 * then keeps the unpaid ones the webhooks will pay, one each.
 */
async function placeOrdersToPay(stack, forSeconds) {
  const since = new Date();
  await measureOrders(stack, forSeconds);
  const { mongoose, OrderModel } = loadApiModels();
  await mongoose.connect(stack.uri, { maxPoolSize: 1 });
  const placed = await OrderModel.find({ paid: false, createdAt: { $gte: since } }, { priceCents: 1 }).lean();
  await mongoose.disconnect();
  stack.unpaid = placed.map((o) => ({ id: String(o._id), cents: o.priceCents }));
}

/** Signed `payment_intent.succeeded` events, one order each, at 10 connections. */
async function measureWebhooks(stack, duration) {
  let next = 0;
  const [api0, db0] = [cpuMs(stack.apiPid), cpuMs(stack.dbPid)];
  const r = await autocannon({
    url: stack.base,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/webhooks/stripe',
        setupRequest: (req) => {
          const order = stack.unpaid[next++];
          if (!order)
            throw new Error('not enough orders placed for the webhook rows: raise BENCH_PLACE_SECONDS');
          const payload = JSON.stringify({
            id: `evt_bench_${order.id}`,
            object: 'event',
            type: 'payment_intent.succeeded',
            data: {
              object: {
                id: `pi_bench_${order.id}`,
                object: 'payment_intent',
                amount: order.cents,
                currency: 'usd',
                status: 'succeeded',
                metadata: { orderId: order.id },
              },
            },
          });
          const signature = signer.webhooks.generateTestHeaderString({ payload, secret: stack.secret });
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'stripe-signature': signature },
            body: payload,
          };
        },
      },
    ],
  });
  stack.unpaid = stack.unpaid.slice(next);
  const n = Math.max(1, r.requests.total);
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    created: r['2xx'],
    placed: r['2xx'] / duration,
    refused: r.non2xx,
    errors: r.errors,
    apiMs: (cpuMs(stack.apiPid) - api0) / n,
    dbMs: (cpuMs(stack.dbPid) - db0) / n,
  };
}

const measure = (stack, duration = seconds) =>
  route === 'webhook' ? measureWebhooks(stack, duration) : measureOrders(stack, duration);

async function measureOrders(stack, duration = seconds) {
  let next = 0;
  const [api0, db0] = [cpuMs(stack.apiPid), cpuMs(stack.dbPid)];
  const r = await autocannon({
    url: stack.base,
    connections,
    duration,
    requests: [
      {
        method: 'POST',
        path: '/order',
        setupRequest: (req, context) => {
          // With the cap on, every request is another customer's (each would soon have 5 open).
          const token =
            openCap === '0'
              ? (context.token ??= stack.tokens[next++ % CUSTOMERS])
              : stack.tokens[next++ % CUSTOMERS];
          const partsId = stack.partIds[Math.floor(Math.random() * stack.partIds.length)];
          return {
            ...req,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ partsId, qty: 100 }),
          };
        },
      },
    ],
  });
  const n = Math.max(1, r.requests.total);
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    created: r['2xx'],
    // Orders placed per second: with the cap on, req/s also counts refusals, which cost less.
    placed: r['2xx'] / duration,
    // 409: one part in ten is sold out in the seed (refused by the conditional stock update).
    refused: r.non2xx,
    errors: r.errors,
    apiMs: (cpuMs(stack.apiPid) - api0) / n,
    dbMs: (cpuMs(stack.dbPid) - db0) / n,
  };
}

/** One admin read (`path`) at 10 connections: req/s, mean and p99 latency, API CPU per request. */
async function measureRead(stack, path, duration = seconds) {
  const api0 = cpuMs(stack.apiPid);
  const r = await autocannon({
    url: stack.base + path,
    connections,
    duration,
    headers: { authorization: `Bearer ${stack.adminToken}` },
  });
  return {
    rps: r.requests.average,
    mean: r.latency.average,
    p99: r.latency.p99,
    ok: r['2xx'],
    failed: r.non2xx + r.errors,
    apiMs: (cpuMs(stack.apiPid) - api0) / Math.max(1, r.requests.total),
  };
}

/** BENCH_ROUTE=sales: the Overview against the admin's first page of orders, one stack. */
async function benchSales() {
  const stack = await startStack('this checkout', path.join(root, 'api/dist/server.js'));
  const paths = ['/orders?page=1', '/sales?days=90'];
  for (const p of paths) await measureRead(stack, p, 2); // JIT, first reads: not measured
  const rows = new Map(paths.map((p) => [p, []]));
  for (let i = 0; i < rounds; i++) for (const p of paths) rows.get(p).push(await measureRead(stack, p));
  const mean = (list, k) => list.reduce((sum, r) => sum + r[k], 0) / list.length;
  console.log(
    `\nGET /sales?days=90 beside GET /orders?page=1 on the scale data set (embedded FerretDB, memory ` +
      `read models), ${connections} connections, ${seconds} s × ${rounds} rounds each; ` +
      `${os.cpus().length} CPUs, node ${process.version}`,
  );
  for (const [p, list] of rows) {
    console.log(
      `${('GET ' + p).padEnd(24)} ${mean(list, 'rps').toFixed(0).padStart(5)} req/s  mean ${mean(list, 'mean').toFixed(1)} ms  ` +
        `p99 ${Math.max(...list.map((r) => r.p99))} ms  API CPU ${mean(list, 'apiMs').toFixed(2)} ms/request  ` +
        `(rounds: ${list.map((r) => r.rps.toFixed(0)).join(', ')} req/s; ${list.reduce((s, r) => s + r.failed, 0)} failed)`,
    );
  }
  const [orders, sales] = paths.map((p) => mean(rows.get(p), 'rps'));
  console.log(
    `ratio: GET /sales?days=90 costs ${(orders / sales).toFixed(2)}× a GET /orders?page=1 (target ≤ 5)`,
  );
}

try {
  if (route === 'sales') {
    await benchSales();
    process.exitCode = 0;
  } else {
    const baselineServer = buildBaseline(baselineRef, path.join(tmp, 'baseline'));
    const stacks = [
      await startStack(
        `baseline ${baselineRef}`,
        baselineServer,
        process.env.BENCH_BASELINE_NODE_ARGS?.split(' ').filter(Boolean),
      ),
      await startStack('this checkout', path.join(root, 'api/dist/server.js')),
    ];
    if (route === 'webhook') {
      const placing = Number(process.env.BENCH_PLACE_SECONDS ?? rounds * seconds * 4 + 10);
      for (const stack of stacks) await placeOrdersToPay(stack, placing);
    }
    for (const stack of stacks) await measure(stack, 2); // JIT, connection: not measured
    const rows = new Map(stacks.map((s) => [s.name, []]));
    for (let i = 0; i < rounds; i++) {
      // Each build goes first in every other round: the first row after a pause runs slower.
      for (const stack of i % 2 === 0 ? stacks : [...stacks].reverse()) {
        rows.get(stack.name).push(await measure(stack));
      }
    }
    const mean = (list, k) => list.reduce((s, r) => s + r[k], 0) / list.length;
    const base = mean(rows.get(stacks[0].name), 'rps');
    const basePlaced = mean(rows.get(stacks[0].name), 'placed');
    console.log(
      `\n${route === 'webhook' ? 'POST /webhooks/stripe (payment_intent.succeeded)' : 'POST /order'} on the scale data set, ${connections} connections, ${seconds} s × ${rounds} rounds each, ` +
        `open-order cap ${openCap === '0' ? 'off' : openCap}, ${CUSTOMERS} customers; ` +
        `${os.cpus().length} CPUs, node ${process.version}`,
    );
    for (const [name, list] of rows) {
      console.log(
        `${name.padEnd(24)} ${mean(list, 'rps').toFixed(0).padStart(5)} req/s  p99 ${Math.max(...list.map((r) => r.p99))} ms  ` +
          `ratio ${(mean(list, 'rps') / base).toFixed(2)}  placed ${mean(list, 'placed').toFixed(0)}/s ` +
          `(ratio ${(mean(list, 'placed') / basePlaced).toFixed(2)})  CPU per order: API ${mean(list, 'apiMs').toFixed(2)} ms, ` +
          `FerretDB ${mean(list, 'dbMs').toFixed(2)} ms  (rounds: ${list.map((r) => r.rps.toFixed(0)).join(', ')} req/s; ` +
          `${list.reduce((s, r) => s + r.created, 0)} placed, ${list.reduce((s, r) => s + r.refused, 0)} refused, ` +
          `${list.reduce((s, r) => s + r.errors, 0)} errors)`,
      );
    }
    // Each round's pair side by side: the spread of these is what one run's ratio is worth.
    const [baseRows, ownRows] = stacks.map((s) => rows.get(s.name));
    const perRound = (f) => ownRows.map((r, i) => f(r) / f(baseRows[i]));
    const median = (xs) => {
      const sorted = [...xs].sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    };
    for (const [what, list] of [
      ['req/s', perRound((r) => r.rps)],
      ['CPU per request (API + FerretDB), baseline / this checkout', perRound((r) => 1 / (r.apiMs + r.dbMs))],
    ]) {
      console.log(
        `round by round, ${what}: ${list.map((x) => x.toFixed(2)).join(', ')} (median ${median(list).toFixed(2)})`,
      );
    }
  }
} finally {
  for (const c of children) {
    c.kill('SIGTERM');
    await new Promise((r) => (c.exitCode !== null ? r() : c.once('exit', r)));
  }
  await stopChild(ferret);
  rmSync(tmp, { recursive: true, force: true });
}
