#!/usr/bin/env node
// On-demand benchmark (not part of `npm test`) of the catalogue's search, GET /parts?q=, on the
// 10,000-part scale data set (bench/seed-scale): this checkout's API (the fuzzy index) against the
// API of BENCH_BASELINE_REF (default 20948d1, the substring search over the in-memory catalogue),
// both as deployed, on one embedded FerretDB, in alternating rounds of BENCH_SECONDS at
// BENCH_CONNECTIONS (10). Each request asks a search term with a random page size (1–100), and
// both APIs run with the smallest cache budget (CACHE_BUDGET_MB=1: 300 KB of pages), so nearly
// every answer is made anew: by the baseline from a substring scan of the catalogue, by the index
// from the search's kept match list (the look-up runs once per search and snapshot, as paging
// through a search does; the swapped-letters row makes ~40 distinct searches).
// Prints req/s, p99 and CPU per answer for each build, their ratios, and the fuzzy API's rows for
// a misspelled term (one swap of two letters) and for two words.
//   npx tsc -b api && node bench/api/search.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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
import { SCALE, SEARCH_TERMS, seedScale } from '../seed-scale/seed.mjs';
import { apiNodeArgs, buildBaseline, cpuMicros, waitReady } from './support.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const baselineRef = process.env.BENCH_BASELINE_REF ?? '20948d1';

ensureTools();
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'motoparts-bench-search-'));
const ports = { db: await freePort(), stripe: await freePort(), authEmulator: await freePort() };
const uri = `mongodb://127.0.0.1:${ports.db}/motoparts-scale`;
const baseEnv = {
  ...process.env,
  ...serviceEnv(ports, {}),
  MONGODB_URI: uri,
  NODE_ENV: 'production',
  ALLOW_LOCAL_SERVICES: '1',
  MAIL_DISABLED: '1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_LISTING: '0/60',
  RATE_LIMIT_LISTING_ACCOUNT: '0/60',
  // The answers' cache as small as it goes: the search is computed for (nearly) every request.
  CACHE_BUDGET_MB: '1',
  // Each API reads the catalogue once; neither writes.
  IMAGE_REHOST_INTERVAL_MS: '0',
};

const pick = (list) => list[Math.floor(Math.random() * list.length)];
const limit = () => 1 + Math.floor(Math.random() * 100);
/** One swap of two neighbouring letters: a typo the fuzzy search forgives and the substring one cannot. */
const swapped = (word) => {
  const i = Math.floor(Math.random() * (word.length - 1));
  return word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
};
const queries = {
  term: () => `/parts?q=${pick(SEARCH_TERMS)}&limit=${limit()}`,
  typo: () => `/parts?q=${swapped(pick(SEARCH_TERMS))}&limit=${limit()}`,
  twoWords: () =>
    `/parts?q=${pick(SEARCH_TERMS)}+${pick(['pads', 'kit', 'rear', 'front', 'steel'])}&limit=${limit()}`,
};

async function startApi(serverJs) {
  const port = await freePort();
  const child = spawn('node', [...apiNodeArgs(), serverJs], {
    env: { ...baseEnv, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitForPort(port, { child });
  await waitReady(`http://127.0.0.1:${port}`, { tries: 600 });
  return { child, base: `http://127.0.0.1:${port}` };
}

/** Stops an API this script spawned (not in its own process group, so not stopChild) and waits. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

async function measure(api, makePath) {
  const request = { method: 'GET', setupRequest: (req) => ({ ...req, path: makePath() }) };
  await autocannon({ url: api.base, connections, duration: 1, requests: [request] }); // warm-up
  const before = cpuMicros(api.child.pid);
  const r = await autocannon({ url: api.base, connections, duration: seconds, requests: [request] });
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    errors: r.errors + r.non2xx,
    cpu: r.requests.total > 0 ? (cpuMicros(api.child.pid) - before) / r.requests.total : 0,
  };
}

const mean = (list, key) => list.reduce((s, x) => s + x[key], 0) / list.length;
const fmt = (name, list) =>
  `${name.padEnd(44)} ${mean(list, 'rps').toFixed(0).padStart(6)} req/s  p99 ≤ ${Math.max(...list.map((x) => x.p99))} ms  ` +
  `cpu ${mean(list, 'cpu').toFixed(0)} µs/answer  (rounds ${list.map((x) => x.rps.toFixed(0)).join(', ')})` +
  (list.some((x) => x.errors) ? `  errors ${list.reduce((s, x) => s + x.errors, 0)}` : '');

const ferret = await startFerret({ port: ports.db, dataDir });
const apis = [];
try {
  await seedScale({ uri, log: () => {} });
  const baselineJs = buildBaseline(baselineRef, path.join(dataDir, 'baseline'));
  const baseline = await startApi(baselineJs);
  const fuzzy = await startApi(path.join(root, 'api/dist/server.js'));
  apis.push(baseline, fuzzy);
  // One API at a time under load: the other is idle (both read the catalogue at start only).
  const base = [];
  const mine = [];
  for (let i = 0; i < rounds; i++) {
    base.push(await measure(baseline, queries.term));
    mine.push(await measure(fuzzy, queries.term));
  }
  const typo = await measure(fuzzy, queries.typo);
  const two = await measure(fuzzy, queries.twoWords);
  const twoBase = await measure(baseline, queries.twoWords);
  console.log(
    `\nGET /parts?q= on ${SCALE.parts.toLocaleString('en')} parts, ${connections} connections, ${seconds} s a round, ` +
      `${rounds} alternating rounds; baseline ${baselineRef}; ${os.cpus().length} CPUs, node ${process.version}; ` +
      `load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
  );
  console.log(fmt(`baseline (substring) q=<term>`, base));
  console.log(fmt(`fuzzy index q=<term>`, mine));
  console.log(
    `ratio fuzzy/baseline: req/s ${(mean(mine, 'rps') / mean(base, 'rps')).toFixed(2)}, ` +
      `CPU per answer ${(mean(mine, 'cpu') / mean(base, 'cpu')).toFixed(2)} (rounds ${mine
        .map((m, i) => (m.rps / base[i].rps).toFixed(2))
        .join(', ')})`,
  );
  console.log(fmt('fuzzy index q=<term with two letters swapped>', [typo]));
  console.log(fmt('baseline q=<term> <word>', [twoBase]));
  console.log(fmt('fuzzy index q=<term> <word>', [two]));
} finally {
  for (const api of apis) await stop(api.child);
  await stopChild(ferret);
  rmSync(dataDir, { recursive: true, force: true });
}
