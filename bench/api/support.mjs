// What the API benchmarks share: the API of another commit, to measure beside this checkout's in
// one run, waiting for a started API to be ready, a process's CPU time, and a FerretDB of a
// script's own reached through the driver.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_NODE_ARGS, ensureTools, freePort, startFerret, stopChild } from '../../scripts/services.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The API's node flags: the image's (API_NODE_ARGS), or BENCH_API_NODE_ARGS to try others. */
export function apiNodeArgs() {
  const given = process.env.BENCH_API_NODE_ARGS;
  return given === undefined ? API_NODE_ARGS : given.split(' ').filter(Boolean);
}

/**
 * Compiles the API of `ref` from `git archive` into `dir` (no stash, no checkout of this
 * worktree) and returns the path of its `server.js`. It uses this checkout's installed packages
 * (the API workspace's own beside the hoisted ones), except that @motoparts/contracts is the ref's.
 */
export function buildBaseline(ref, dir) {
  const tar = execFileSync('git', ['archive', ref, 'api', 'contracts', 'tsconfig.base.json'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  const nm = path.join(dir, 'node_modules');
  mkdirSync(path.join(nm, '@motoparts'), { recursive: true });
  for (const entry of readdirSync(path.join(root, 'node_modules'))) {
    if (entry === '@motoparts' || entry.startsWith('.')) continue;
    symlinkSync(path.join(root, 'node_modules', entry), path.join(nm, entry));
  }
  symlinkSync(path.join(dir, 'contracts'), path.join(nm, '@motoparts', 'contracts'));
  // Packages npm installed inside the workspace (a version other than the hoisted one).
  const own = path.join(root, 'api', 'node_modules');
  if (existsSync(own)) {
    mkdirSync(path.join(dir, 'api', 'node_modules'), { recursive: true });
    for (const entry of readdirSync(own)) {
      if (!entry.startsWith('.'))
        symlinkSync(path.join(own, entry), path.join(dir, 'api', 'node_modules', entry));
    }
  }
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-b', 'api'], { cwd: dir, stdio: 'inherit' });
  return path.join(dir, 'api/dist/server.js');
}

/**
 * Whether the API built at `server` predates the code's own stored names (api/src/stored-names.ts):
 * such a baseline reads a part's minimum as `qty` and an order's fields as `partsId`, `Parts`, `qty`.
 */
export const readsWireNames = (server) => !existsSync(path.join(path.dirname(server), 'stored-names.js'));

/** Renames the seeded parts' and orders' fields at `uri` back to the names such a baseline reads. */
export async function useWireNames(uri) {
  const mongoose = createRequire(path.join(root, 'api/package.json'))('mongoose');
  const conn = await mongoose.createConnection(uri, { maxPoolSize: 1 }).asPromise();
  try {
    const { db } = conn;
    await db.collection('parts').updateMany({}, { $rename: { minOrderQty: 'qty' } });
    await db
      .collection('orders')
      .updateMany({}, { $rename: { partId: 'partsId', partName: 'Parts', quantity: 'qty' } });
  } finally {
    await conn.close();
  }
}

/** Waits until the API at `base` is ready (GET /health answers 200: the catalogue is read). */
export async function waitReady(base, { tries = 600 } = {}) {
  for (let i = 0; i < tries; i++) {
    const res = await fetch(`${base}/health`).catch(() => undefined);
    if (res?.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}
/** CPU time (user + system) a process has used, in µs, from /proc (Linux; 100 ticks a second). */
export function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

// The driver the API uses (Mongoose's own), from the API's packages.
const requireApi = createRequire(path.join(root, 'api/package.json'));
export const { MongoClient, ObjectId } = requireApi('mongoose').mongo;

/**
 * Runs `measure(db, ferretPid)` on a FerretDB of its own (in a temp dir, removed after) over one
 * driver connection, as the API reaches it.
 */
export async function withOwnFerret(name, measure) {
  ensureTools();
  const tmp = mkdtempSync(path.join(os.tmpdir(), `motoparts-bench-${name}-`));
  const port = await freePort();
  const ferret = await startFerret({ port, dataDir: tmp });
  let client;
  try {
    client = await new MongoClient(`mongodb://127.0.0.1:${port}/${name}`, { maxPoolSize: 1 }).connect();
    await measure(client.db(name), ferret.pid);
  } finally {
    await client?.close();
    await stopChild(ferret);
    rmSync(tmp, { recursive: true, force: true });
  }
}
