#!/usr/bin/env node
// On-demand API benchmark (not part of `npm test`) on the 10,000-part catalogue of
// bench/seed-scale: random GET /parts pages, ?q= search, GET /parts/:id, GET /order?user= for the
// user with 100 orders, POST /order from 50 customers (one per connection), the admin's and the
// signed-in reads, and sign-ins (PUT /user/:email, through the Firebase Auth emulator), against the real
// API process and its own FerretDB (or the MongoDB that MONGODB_URI names), beside a bare
// @koa/router hello route measured in the same run. A page and a search are also timed one at a
// time against an API with the cache off (CATALOG_CACHE_TTL_MS=0) to show what the cache buys.
// Prints req/s, p50/p99, the ratio to the baseline, and the API's peak RSS (VmHWM from /proc).
//   npx tsc -b api && node bench/api/run.mjs        (BENCH_SECONDS=5 BENCH_CONNECTIONS=50 BENCH_PAIRS=2)
import { fork, spawn } from 'node:child_process';
import { get as httpGet } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import {
  ensureTools,
  freePort,
  serviceEnv,
  startAuthEmulator,
  startFerret,
  stopChild,
  waitForPort,
} from '../../scripts/services.mjs';
import {
  ADMIN_EMAIL,
  ADMIN_INDEX,
  BENCH_USER,
  SCALE,
  SEARCH_TERMS,
  customerEmail,
  customerTokens,
  customerUid,
  uidOf,
  loadApiModels,
  seedScale,
} from '../seed-scale/seed.mjs';
import { apiNodeArgs, cpuMicros, waitReady } from './support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const require = createRequire(import.meta.url);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const CUSTOMERS = 50;
// BENCH_ONLY=catalogue: the hello route and the cached catalogue reads against their same-bytes
// baselines only (about a minute after the seed), for quick before/after runs of that path.
const catalogueOnly = process.env.BENCH_ONLY === 'catalogue';
// BENCH_ONLY=photos: the hello route, POST /order and a 2 MB photo upload (POST /images), one at a
// time and under load, in the same run (the photo's cost read beside an order's).
const photosOnly = process.env.BENCH_ONLY === 'photos';
// Alternating rounds of each cached row and its same-bytes baseline (see cachedRow).
const pairs = Math.max(1, Number(process.env.BENCH_PAIRS ?? 2));

ensureTools();
const ports = { db: await freePort(), stripe: await freePort(), authEmulator: await freePort() };
const helloPort = await freePort();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-bench-'));
// MONGODB_URI: measure against that MongoDB (its database name must contain "scale": the seed
// replaces it) instead of an embedded FerretDB of the script's own.
const externalUri = process.env.MONGODB_URI || undefined;
const baseEnv = {
  ...process.env,
  ...serviceEnv(ports, { mongodbUri: externalUri }),
  MONGODB_URI: externalUri ?? `mongodb://127.0.0.1:${ports.db}/motoparts-scale`,
  NODE_ENV: 'production',
  // Production's code paths against the local stand-ins, which production refuses unless told.
  ALLOW_LOCAL_SERVICES: '1',
  // No mail server in a bench: production starts without SMTP_URL only when told.
  MAIL_DISABLED: '1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_EXCHANGE_IP: '0/60',
  RATE_LIMIT_EXCHANGE_USER: '0/60',
  // One load generator on one address stands for many shoppers: the per-address and per-account
  // abuse limits and the open-order cap would answer 429/409 instead of doing the work measured.
  RATE_LIMIT_LISTING: '0/60',
  RATE_LIMIT_LISTING_ACCOUNT: '0/60',
  RATE_LIMIT_ORDER: '0/60',
  RATE_LIMIT_IMAGES: '0/60',
  MAX_OPEN_ORDERS: '0',
  // The seed's customers are not verified in Firebase: the lower cap of unverified accounts is off.
  MAX_UNVERIFIED_OPEN_ORDERS: '0',
  // The seed's open orders were placed within the last half hour: held for an hour, none expires
  // during a run, so no stock give-back drops the in-stock lists while their cached reads are timed.
  ORDER_HOLD_MINUTES: '60',
};

/** Rounds of one row as one: mean req/s, latencies and CPU per answer, worst p99, peak RSS. */
function meanOf(rounds) {
  const mean = (key) => rounds.reduce((sum, r) => sum + r[key], 0) / rounds.length;
  return {
    ...rounds[0],
    rps: mean('rps'),
    p50: Math.round(mean('p50')),
    p99: Math.max(...rounds.map((r) => r.p99)),
    errors: rounds.reduce((sum, r) => sum + r.errors, 0),
    peakRss: Math.max(...rounds.map((r) => r.peakRss)),
    cpuPerAnswer: mean('cpuPerAnswer'),
  };
}

/** Peak and current RSS of a process, in MB, from /proc (Linux). */
function memOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { hwm: kb('VmHWM') / 1024, rss: kb('VmRSS') / 1024 };
}

/** Stops a child we spawned (not in its own process group, so not stopChild) and waits for it. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

const pick = (list) => list[Math.floor(Math.random() * list.length)];

/**
 * Camera-like JPEGs of about 2 MB (3000 × 2000, a gradient under fine noise), made with the API's
 * sharp, each different so none is answered from an earlier upload's stored copy.
 */
async function twoMegabytePhotos(count) {
  const sharp = require('sharp');
  const [width, height] = [3000, 2000];
  const photos = [];
  for (let n = 0; n < count; n++) {
    const pixels = Buffer.alloc(width * height * 3);
    let seed = 12345 + n;
    for (let i = 0; i < pixels.length; i++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const x = (i / 3) % width;
      pixels[i] = ((x * 200) / width + (seed % 56)) & 0xff;
    }
    let quality = 90;
    let bytes = await sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    while (bytes.length > 2.2 * 1024 * 1024 && quality > 40) {
      quality -= 5;
      bytes = await sharp(pixels, { raw: { width, height, channels: 3 } })
        .jpeg({ quality })
        .toBuffer();
    }
    photos.push(bytes);
  }
  return photos;
}

async function startApi(extraEnv) {
  const port = await freePort();
  // The image's node flags by default (deploy/api.Dockerfile), so RSS is measured as deployed.
  const child = spawn('node', [...apiNodeArgs(), path.join(root, 'api/dist/server.js')], {
    env: { ...baseEnv, ...extraEnv, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForPort(port, { child });
  await waitReady(`http://127.0.0.1:${port}`, { tries: 300 });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Waits until the API's one DB connection has worked off what a route queued (GET /health pings it). */
async function drain(base) {
  // Handlers still running issue their next query behind the ping, so wait for a quick one.
  const started = Date.now();
  for (let quick = 0; quick < 2 && Date.now() - started < 180_000;) {
    const t = Date.now();
    await fetch(`${base}/health`, { signal: globalThis.AbortSignal.timeout(180_000) }).catch(() => undefined);
    quick = Date.now() - t < 100 ? quick + 1 : 0;
  }
  return (Date.now() - started) / 1000;
}

/** Mean latency of a few requests one at a time (what one request costs with no queue). */
async function sequentialMs(url, init, n = 3) {
  const started = Date.now();
  for (let i = 0; i < n; i++) await (await fetch(url, init())).arrayBuffer();
  return (Date.now() - started) / n;
}

/**
 * One route under load. `pid` also gets its RSS sampled; `cpuPid` (the server answering) its CPU
 * per answer: on two shared cores the load generator competes with the server, so req/s moves
 * with the machine while the server's own CPU per answer is the steadier comparison.
 */
async function measure({
  name,
  pid,
  cpuPid = pid,
  warmup = true,
  conns = connections,
  duration = seconds,
  ...opts
}) {
  if (warmup) await autocannon({ ...opts, connections: conns, duration: 1 }); // JIT, pool, first cache fills
  let peakRss = 0;
  const sampler = pid
    ? setInterval(() => {
        peakRss = Math.max(peakRss, memOf(pid).rss);
      }, 100)
    : undefined;
  const cpuBefore = cpuPid ? cpuMicros(cpuPid) : 0;
  const r = await autocannon({ ...opts, connections: conns, duration });
  clearInterval(sampler);
  return {
    name,
    conns,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    peakRss,
    cpuPerAnswer: cpuPid && r.requests.total > 0 ? (cpuMicros(cpuPid) - cpuBefore) / r.requests.total : 0,
  };
}

/**
 * Sign-ins (PUT /user/:email) one at a time, each with a fresh Firebase ID token from the auth
 * emulator: seeded customers signing in again, and addresses signing in for the first time with
 * the address verified (the case that claims older orders placed under it).
 */
async function signInTimes(base, { returning, fresh }) {
  process.env.FIREBASE_AUTH_EMULATOR_HOST = baseEnv.FIREBASE_AUTH_EMULATOR_HOST;
  const { initializeApp } = require(
    require.resolve('firebase-admin/app', { paths: [path.join(root, 'api')] }),
  );
  const { getAuth } = require(require.resolve('firebase-admin/auth', { paths: [path.join(root, 'api')] }));
  const auth = getAuth(initializeApp({ projectId: baseEnv.FIREBASE_PROJECT_ID }, 'bench'));
  const password = 'bench-pass-2026';
  for (const a of [...returning, ...fresh]) await auth.createUser({ ...a, password, emailVerified: true });
  const once = async ({ email }) => {
    const signedIn = await fetch(
      `http://${baseEnv.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password, returnSecureToken: true }),
      },
    );
    const { idToken } = await signedIn.json();
    const started = Date.now();
    const res = await fetch(`${base}/user/${encodeURIComponent(email)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${idToken}` },
      body: JSON.stringify({ email }),
    });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`PUT /user/${email} → ${res.status}`);
    return Date.now() - started;
  };
  const mean = async (accounts) => {
    let total = 0;
    for (const a of accounts) total += await once(a);
    return total / accounts.length;
  };
  return {
    'PUT /user/:email (sign-in again)': await mean(returning),
    'PUT /user/:email (first sign-in, verified)': await mean(fresh),
  };
}

const children = [];
const ferret = externalUri ? undefined : await startFerret({ port: ports.db, dataDir });
const emulator = catalogueOnly ? undefined : await startAuthEmulator({ port: ports.authEmulator });
try {
  const seedStarted = Date.now();
  await seedScale({ uri: baseEnv.MONGODB_URI, log: () => {} });
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  // Part ids for /parts/:id and POST /order, read before the API starts (no concurrent client).
  const { mongoose, PartModel, OrderModel } = loadApiModels();
  await mongoose.connect(baseEnv.MONGODB_URI, { maxPoolSize: 1 });
  const partIds = (await PartModel.find({}, { _id: 1 }).lean()).map((p) => String(p._id));
  const orderIds = (await OrderModel.find({}, { _id: 1 }).lean()).map((o) => String(o._id));
  await mongoose.disconnect();
  const pages = Math.ceil(SCALE.parts / 24);

  const { loadEnv } = require(path.join(root, 'api/dist/lib/env.js'));
  const { signApiToken } = require(path.join(root, 'api/dist/lib/tokens.js'));
  const apiEnv = loadEnv(baseEnv);
  const benchUserToken = signApiToken(apiEnv, {
    uid: uidOf(0),
    email: BENCH_USER,
    name: 'Bench Hundred',
    admin: false,
    epoch: 0,
  });
  const adminToken = signApiToken(apiEnv, {
    uid: uidOf(ADMIN_INDEX),
    email: ADMIN_EMAIL,
    name: 'Scale Admin',
    admin: true,
    epoch: 0,
  });
  const customers = customerTokens(signApiToken, apiEnv, CUSTOMERS);

  const hello = fork(path.join(here, 'hello-server.mjs'), [], {
    env: { ...process.env, PORT: String(helloPort) },
  });
  children.push(hello);
  await waitForPort(helloPort, { child: hello });

  const pageRequest = {
    method: 'GET',
    setupRequest: (req) => ({ ...req, path: `/parts?page=${1 + Math.floor(Math.random() * pages)}` }),
  };
  const searchRequest = {
    method: 'GET',
    setupRequest: (req) => ({
      ...req,
      path: `/parts?q=${pick(SEARCH_TERMS)}&page=${1 + Math.floor(Math.random() * 3)}`,
    }),
  };

  // The catalogue page's query: search + department + stock filter + a sort, all at once.
  const filteredRequest = {
    method: 'GET',
    setupRequest: (req) => ({
      ...req,
      path:
        `/parts?q=${pick(SEARCH_TERMS)}&category=${pick(['parts', 'tools', 'gear'])}` +
        `&inStock=${pick(['true', 'false'])}&sort=${pick(['name', '-name', 'price', '-price', 'newest'])}` +
        `&page=${1 + Math.floor(Math.random() * 2)}`,
    }),
  };

  const rows = [];
  rows.push(
    await measure({
      name: 'hello (bare @koa/router)',
      url: `http://127.0.0.1:${helloPort}/hello`,
      cpuPid: hello.pid,
    }),
  );

  let nocacheHwm;
  const nocacheMs = {};
  if (!catalogueOnly && !photosOnly) {
    // The same catalogue reads with the cache off: what the database alone allows. One request at
    // a time: under 50 connections each answer waits behind the scans queued before it on the one
    // connection and the load generator times them all out (the row read 0 req/s).
    const nocache = await startApi({ CATALOG_CACHE_TTL_MS: '0' });
    children.push(nocache.child);
    const meanMs = async (request, n = 3) => {
      const started = Date.now();
      for (let i = 0; i < n; i++) {
        await (await fetch(`${nocache.base}${request.setupRequest({}).path}`)).arrayBuffer();
      }
      return (Date.now() - started) / n;
    };
    nocacheMs['GET /parts?page (random)'] = await meanMs(pageRequest);
    nocacheMs['GET /parts?q'] = await meanMs(searchRequest);
    nocacheHwm = memOf(nocache.child.pid).hwm;
    await stop(nocache.child);
  }

  const api = await startApi({});
  children.push(api.child);
  const pid = api.child.pid;
  // Load the in-memory catalogue (one scan) before measuring, as any first visitor would.
  const firstReadMs = await sequentialMs(`${api.base}/parts`, () => ({}), 1);
  // The ceiling for these answers: a bare router whose `/parts` and `/parts/:id` send the exact
  // bytes and headers of one cached answer of each, loaded by the same request generators (the
  // load generator's per-request work is then the same on both sides of each ratio).
  const kept = ['content-type', 'etag', 'cache-control', 'x-total-count', 'link', 'vary'];
  const sampleOf = async (url) => {
    const res = await fetch(url);
    return {
      headers: Object.fromEntries(kept.filter((h) => res.headers.has(h)).map((h) => [h, res.headers.get(h)])),
      body: Buffer.from(await res.arrayBuffer()).toString('base64'),
    };
  };
  // The gzipped answer as sent (fetch would decode it): the ceiling of the gzip row.
  const rawSampleOf = (url) =>
    new Promise((resolve, reject) => {
      httpGet(url, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            headers: Object.fromEntries(
              [...kept, 'content-encoding']
                .filter((h) => res.headers[h] !== undefined)
                .map((h) => [h, String(res.headers[h])]),
            ),
            body: Buffer.concat(chunks).toString('base64'),
          }),
        );
      }).on('error', reject);
    });
  const sameGzFile = path.join(dataDir, 'same-bytes-gzip.json');
  writeFileSync(sameGzFile, JSON.stringify({ '/parts': await rawSampleOf(`${api.base}/parts?page=2`) }));
  const sameBytesFile = path.join(dataDir, 'same-bytes.json');
  writeFileSync(
    sameBytesFile,
    JSON.stringify({
      '/parts': await sampleOf(`${api.base}/parts?page=2`),
      '/parts/:id': await sampleOf(`${api.base}/parts/${partIds[0]}`),
    }),
  );
  const samePort = await freePort();
  const same = fork(path.join(here, 'hello-server.mjs'), [], {
    env: { ...process.env, PORT: String(samePort), SAME_BYTES_FILE: sameBytesFile },
  });
  children.push(same);
  await waitForPort(samePort, { child: same });
  const sameGzPort = await freePort();
  const sameGz = fork(path.join(here, 'hello-server.mjs'), [], {
    env: { ...process.env, PORT: String(sameGzPort), SAME_BYTES_FILE: sameGzFile },
  });
  children.push(sameGz);
  await waitForPort(sameGzPort, { child: sameGz });
  // BENCH_PARTS=N: the random part is one of the first N only (all 10,000 by default), to see
  // how much of that row's cost is reaching 10,000 answers in memory rather than making one.
  const partSet = partIds.slice(0, Number(process.env.BENCH_PARTS) || partIds.length);
  const partRequest = {
    method: 'GET',
    setupRequest: (req) => ({ ...req, path: `/parts/${pick(partSet)}` }),
  };
  /**
   * A cached read against the bare router sending the same bytes to the same requests, in
   * BENCH_PAIRS alternating rounds (baseline, then the API, each round): a single pair moved with
   * whatever else the two cores were doing in those ten seconds (0.67 to 0.96 for one row in one hour).
   * The row is the rounds' mean, its p99 their worst; each round's own ratio is printed too.
   */
  const cachedRow = async (name, request, { port = samePort, server = same } = {}) => {
    const baselines = [];
    const reads = [];
    for (let i = 0; i < pairs; i++) {
      baselines.push(
        await measure({
          name: `  same bytes: ${name}`,
          url: `http://127.0.0.1:${port}`,
          cpuPid: server.pid,
          requests: [request],
        }),
      );
      reads.push(await measure({ name: `${name} (cached)`, url: api.base, pid, requests: [request] }));
    }
    const baseline = meanOf(baselines);
    const row = meanOf(reads);
    const rounds = reads.map((r, i) => (r.rps / baselines[i].rps).toFixed(2));
    rows.push(baseline, { ...row, same: baseline.rps, sameCpu: baseline.cpuPerAnswer, rounds });
  };
  if (!photosOnly) {
    await cachedRow('GET /parts?page', pageRequest);
    await cachedRow('GET /parts?q', searchRequest);
    await cachedRow('GET /parts?q&category&inStock&sort', filteredRequest);
    await cachedRow('GET /parts/:id', partRequest);
    // The same pages to a client that accepts gzip: the gzipped bytes are kept with each answer.
    await cachedRow(
      'GET /parts?page (gzip)',
      { ...pageRequest, headers: { 'accept-encoding': 'gzip' } },
      { port: sameGzPort, server: sameGz },
    );
  }
  await stop(same);
  await stop(sameGz);
  const photos = catalogueOnly ? [] : await twoMegabytePhotos(8);
  const photoInit = (i) => () => ({
    method: 'POST',
    headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${customers[1]}` },
    body: photos[i],
  });
  let drained = 0;
  let sequential = {};
  if (!catalogueOnly) {
    // The database-bound routes, one request at a time first (no queue), then at the issue's
    // concurrency (10 connections for POST /order, 20 for the signed-in reads) without warm-up (a
    // warm-up's queue would swallow the measured window on FerretDB).
    const orderBody = () => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${customers[0]}` },
      body: JSON.stringify({ partsId: pick(partIds), qty: 20 }),
    });
    const ordersUrl = `${api.base}/order?user=${encodeURIComponent(BENCH_USER)}`;
    const ordersInit = () => ({ headers: { authorization: `Bearer ${benchUserToken}` } });
    const asAdmin = { authorization: `Bearer ${adminToken}` };
    const adminInit = () => ({ headers: asAdmin });
    const someCustomer = () => customerEmail(1 + Math.floor(Math.random() * (ADMIN_INDEX - 1)));
    const orderPages = Math.ceil(SCALE.orders / 100);
    const userPages = Math.ceil(SCALE.users / 100);
    // What the dashboard's Manage Order and All Users pages ask for (ADMIN_PAGE_SIZE in
    // dashboard-mfe/src/lib/list-page.ts); the rows above take the API's default of 100 a page.
    const ADMIN_PAGE_SIZE = 25;
    const adminOrderPages = Math.ceil(SCALE.orders / ADMIN_PAGE_SIZE);
    const adminUserPages = Math.ceil(SCALE.users / ADMIN_PAGE_SIZE);
    /** A signed-in read at 20 connections: `path()` makes each request's path. */
    const readRow = (name, path, headers) => ({
      name,
      url: api.base,
      pid,
      warmup: false,
      conns: 20,
      requests: [{ method: 'GET', headers, setupRequest: (req) => ({ ...req, path: path() }) }],
    });
    let nextPhoto = 0;
    sequential = {
      'POST /order': await sequentialMs(`${api.base}/order`, orderBody),
      // The first photo also loads sharp (the API loads it at its first photo), then five warm.
      [`POST /images, the first (loads sharp)`]: await sequentialMs(
        `${api.base}/images`,
        () => photoInit(nextPhoto++ % photos.length)(),
        1,
      ),
      [`POST /images (a ${(photos[0].length / 1024 / 1024).toFixed(1)} MB JPEG, 3000 × 2000)`]:
        await sequentialMs(`${api.base}/images`, () => photoInit(nextPhoto++ % photos.length)(), 5),
    };
    if (!photosOnly)
      sequential = {
        ...sequential,
        'GET /parts?page after an order': await sequentialMs(`${api.base}/parts?page=2`, () => ({}), 1),
        'GET /order?user= (100 orders)': await sequentialMs(ordersUrl, ordersInit, 2),
        'GET /order/:id': await sequentialMs(`${api.base}/order/${pick(orderIds)}`, adminInit),
        'GET /admin/:email': await sequentialMs(`${api.base}/admin/${someCustomer()}`, adminInit),
        'GET /user/:email': await sequentialMs(`${api.base}/user/${someCustomer()}`, adminInit),
        'GET /orders?page=': await sequentialMs(
          `${api.base}/orders?page=${1 + Math.floor(Math.random() * orderPages)}`,
          adminInit,
        ),
        'GET /user?page=': await sequentialMs(
          `${api.base}/user?page=${1 + Math.floor(Math.random() * userPages)}`,
          adminInit,
        ),
        ...(await signInTimes(api.base, {
          returning: [5, 6, 7].map((i) => ({ uid: customerUid(i), email: customerEmail(i) })),
          fresh: [1, 2, 3].map((i) => ({ uid: `bench-new-${i}`, email: `new-${i}@motoparts-scale.test` })),
        })),
      };
    let nextCustomer = 0;
    // POST /order at 10 connections: one customer per connection; each order takes 20 pieces of a
    // random part.
    const orderRow = (name) =>
      measure({
        name,
        url: api.base,
        pid,
        warmup: false,
        conns: 10,
        requests: [
          {
            method: 'POST',
            path: '/order',
            setupRequest: (req, context) => {
              context.token ??= customers[nextCustomer++ % CUSTOMERS];
              return {
                ...req,
                headers: { 'content-type': 'application/json', authorization: `Bearer ${context.token}` },
                body: JSON.stringify({ partsId: pick(partIds), qty: 20 }),
              };
            },
          },
        ],
      });
    rows.push(await orderRow(`POST /order (${CUSTOMERS} customers)`));
    drained = await drain(api.base);
    // Photo uploads at 4 connections: one is decoded at a time, the others wait in its queue.
    rows.push(
      await measure({
        name: 'POST /images (2 MB JPEG)',
        url: api.base,
        pid,
        warmup: false,
        conns: 4,
        // Each takes most of a second of one core: 5 s would count a handful.
        duration: Math.max(seconds, 20),
        requests: [
          {
            method: 'POST',
            path: '/images',
            setupRequest: (req) => ({ ...req, ...photoInit(nextPhoto++ % photos.length)() }),
          },
        ],
      }),
    );
    await drain(api.base);
    if (photosOnly) rows.push(await orderRow(`POST /order after the uploads (${CUSTOMERS} customers)`));
    // Reads right after the order burst: invalidation keeps them correct, the cache refills.
    if (!photosOnly)
      rows.push(
        await measure({
          name: 'GET /parts?page (after orders)',
          url: api.base,
          pid,
          requests: [pageRequest],
        }),
      );
    const authorizedAs = (token) => ({ authorization: `Bearer ${token}` });
    for (const row of photosOnly
      ? []
      : [
          readRow(
            'GET /order?user= (100 orders)',
            () => `/order?user=${encodeURIComponent(BENCH_USER)}`,
            authorizedAs(benchUserToken),
          ),
          readRow('GET /order/:id', () => `/order/${pick(orderIds)}`, asAdmin),
          readRow('GET /admin/:email', () => `/admin/${someCustomer()}`, asAdmin),
          readRow('GET /user/:email', () => `/user/${someCustomer()}`, asAdmin),
          readRow(
            'GET /orders?page= (random)',
            () => `/orders?page=${1 + Math.floor(Math.random() * orderPages)}`,
            asAdmin,
          ),
          readRow(
            'GET /user?page= (random)',
            () => `/user?page=${1 + Math.floor(Math.random() * userPages)}`,
            asAdmin,
          ),
          readRow(
            'GET /orders?page=&limit=25 (Manage Order)',
            () => `/orders?page=${1 + Math.floor(Math.random() * adminOrderPages)}&limit=${ADMIN_PAGE_SIZE}`,
            asAdmin,
          ),
          readRow(
            'GET /user?page=&limit=25 (All Users)',
            () => `/user?page=${1 + Math.floor(Math.random() * adminUserPages)}&limit=${ADMIN_PAGE_SIZE}`,
            asAdmin,
          ),
        ]) {
      rows.push(await measure(row));
      // Each route starts on an empty queue.
      await drain(api.base);
    }
  }
  const hwm = memOf(pid).hwm;

  const base = rows[0].rps;
  console.log(
    `\nAPI benchmark: ${SCALE.parts.toLocaleString('en')} parts, ${SCALE.users.toLocaleString('en')} users, ` +
      `${SCALE.orders.toLocaleString('en')} orders (seeded in ${seedSeconds.toFixed(0)} s); ${connections} connections, ` +
      `${seconds} s per route; ${os.cpus().length} CPUs, node ${process.version}; ` +
      (externalUri ? `the MongoDB of MONGODB_URI (${new URL(externalUri).host})` : 'the embedded FerretDB'),
  );
  console.log(
    'ratio: to the hello route; same: to the bare router sending that answer’s exact bytes to the same requests' +
      ' (in req/s, and its CPU per answer over the API’s)',
  );
  for (const r of rows) {
    const toSame = r.same
      ? `  same ${(r.rps / r.same).toFixed(2)} (CPU per answer ${(r.sameCpu / r.cpuPerAnswer).toFixed(2)}; rounds ${r.rounds.join(', ')})`
      : '';
    const cpu = r.cpuPerAnswer ? `  cpu ${r.cpuPerAnswer.toFixed(0)} µs/answer` : '';
    console.log(
      `${r.name.padEnd(44)} ${String(r.conns).padStart(3)} conns ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${String(r.p50).padStart(4)} ms  p99 ${String(r.p99).padStart(4)} ms  ` +
        `ratio ${(r.rps / base).toFixed(3)}${toSame}${cpu}${r.peakRss ? `  rss ≤ ${r.peakRss.toFixed(0)} MB` : ''}` +
        `${r.errors ? `  (non-2xx/errors: ${r.errors})` : ''}`,
    );
  }
  console.log(
    `API peak RSS (VmHWM): ${hwm.toFixed(0)} MB cached API` +
      (nocacheHwm ? `, ${nocacheHwm.toFixed(0)} MB no-cache API` : ''),
  );
  if (!catalogueOnly)
    console.log(
      `(the POST /order run left ${drained.toFixed(0)} s of queued database work; drained before the next route)`,
    );
  console.log(`first GET /parts (loads the catalogue): ${firstReadMs.toFixed(0)} ms`);
  for (const [k, v] of Object.entries(sequential))
    console.log(`one request at a time: ${k} ${v.toFixed(0)} ms`);
  for (const [k, v] of Object.entries(nocacheMs))
    console.log(`one request at a time, catalogue cache off: ${k} ${v.toFixed(0)} ms`);
} finally {
  for (const c of children) await stop(c);
  if (emulator) await stopChild(emulator);
  if (ferret) await stopChild(ferret);
  rmSync(dataDir, { recursive: true, force: true });
}
