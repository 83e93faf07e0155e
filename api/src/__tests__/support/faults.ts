import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import mongoose from 'mongoose';
import { loadEnv } from '../../lib/env';
import { signApiToken } from '../../lib/tokens';

// Helpers for tests that run their OWN FerretDB and API processes (free ports, temp dirs), so
// they can kill -9, stop and signal them.
const ROOT = path.resolve(__dirname, '../../../..');
const FERRET = path.join(ROOT, '.tools/bin/ferretdb');

/** The value, or a thrown error naming what was missing (instead of a non-null assertion). */
export function got<T>(value: T | null | undefined, what = 'a value'): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = net.connect({ port, host: '127.0.0.1' });
    sock.once('connect', () => {
      sock.destroy();
      resolve(true);
    });
    sock.once('error', () => resolve(false));
  });
}

/** Polls until the predicate holds; false after `attempts` tries (never asserted on time). */
export async function eventually(
  fn: () => Promise<boolean>,
  attempts = 240,
  everyMs = 250,
): Promise<boolean> {
  for (let i = 0; i < attempts; i++) {
    if (await fn().catch(() => false)) return true;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  return false;
}

export async function startFerret(port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(FERRET, ['--listen-addr', `127.0.0.1:${port}`, '--sqlite-url', `file:${dataDir}/`], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 400 && !(await canConnect(port)); i++) {
    if (child.exitCode !== null) throw new Error(`ferretdb exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return child;
}

export function kill(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/** Compiles the API (incremental; a no-op when dist is current, as in `npm test`). */
export function buildApi(): void {
  execFileSync(path.join(ROOT, 'node_modules/.bin/tsc'), ['-b', 'api'], { cwd: ROOT, stdio: 'inherit' });
}

export interface ApiProcess {
  child: ChildProcess;
  base: string;
  port: number;
  output(): string;
}

/** The node flags the API's image starts it with (deploy/api.Dockerfile's CMD). */
export function imageNodeArgs(): string[] {
  const dockerfile = readFileSync(path.join(ROOT, 'deploy/api.Dockerfile'), 'utf8');
  const cmd = /^CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  if (!cmd) throw new Error('deploy/api.Dockerfile has no exec-form CMD');
  const args = JSON.parse(cmd) as string[];
  return args.filter((a) => a.startsWith('--'));
}

/** `node api/dist/server.js` against the given database; resolves once /health is 200. */
export async function startApi(
  dbUri: string,
  extra: Record<string, string> = {},
  port?: number,
  nodeArgs: string[] = [],
): Promise<ApiProcess> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, [...nodeArgs, path.join(ROOT, 'api/dist/server.js')], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      MONGODB_URI: dbUri,
      MONGODB_EMBEDDED: 'true',
      MONGODB_SERVER_SELECTION_TIMEOUT_MS: '500',
      ORDER_RECOVERY_INTERVAL_MS: '500',
      // Fifty customers ordering as fast as they can: the per-account order limit is not under test.
      RATE_LIMIT_ORDER: '0/60',
      PORT: String(p),
      HOST: '127.0.0.1',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  child.stderr?.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
  const base = `http://127.0.0.1:${p}`;
  const up = await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`API exited: ${out}`);
      return (await fetch(`${base}/health`)).status === 200;
    },
    400,
    100,
  );
  if (!up) throw new Error(`API did not become ready: ${out}`);
  return { child, base, port: p, output: () => out };
}

/** API tokens for customers, signed as the API does (no emulator round trip needed). */
export function customerTokens(n: number, label: string): { uid: string; email: string; token: string }[] {
  const env = loadEnv({ ...process.env, MONGODB_URI: 'mongodb://127.0.0.1:1/x' });
  return Array.from({ length: n }, (_, i) => {
    const uid = `${label}-${i}`;
    const email = `${label}-${i}@motoparts-test.dev`;
    return {
      uid,
      email,
      token: signApiToken(env, { uid, email, name: `Customer ${i}`, admin: false, epoch: 0 }),
    };
  });
}

/**
 * The accounts behind those tokens, written straight into the database before the API starts
 * (the API checks on every request that the token's account exists).
 */
export async function seedCustomers(
  dbUri: string,
  customers: { uid: string; email: string }[],
): Promise<void> {
  const conn = await mongoose.createConnection(dbUri, { maxPoolSize: 1 }).asPromise();
  try {
    const users = conn.db?.collection<{ _id: string }>('users');
    if (!users) throw new Error('no database handle');
    const now = new Date();
    await users.insertMany(
      customers.map((c, i) => ({
        _id: c.uid,
        email: c.email,
        emailVerified: true,
        name: `Customer ${i}`,
        role: 'user',
        education: '',
        location: '',
        phone: '',
        linkedin: '',
        sessionEpoch: 0,
        createdAt: now,
        updatedAt: now,
      })),
    );
  } finally {
    await conn.close();
  }
}

export interface Outcome {
  status?: number;
  body?: unknown;
  /** Network error code (ECONNREFUSED, ECONNRESET …) when there was no HTTP answer. */
  error?: string;
}

/** One request on its own connection (no keep-alive), with a bound so a hang fails the test. */
export function send(
  base: string,
  method: string,
  pathname: string,
  token: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const url = new URL(pathname, base);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      url,
      {
        method,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }
            : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode, body: parsed });
        });
        res.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
      },
    );
    req.on('timeout', () => {
      req.destroy();
      resolve({ error: 'HANG' });
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(payload);
  });
}

interface RawPart {
  _id: mongoose.Types.ObjectId;
  availableQty: number;
  journal?: string[];
}
interface RawOrder {
  _id: mongoose.Types.ObjectId;
  partId: mongoose.Types.ObjectId;
  quantity: number;
  hold?: string;
  status: string;
}

/** Reads the database directly (its own connection) to check the stock invariant. */
export async function readStock(dbUri: string): Promise<{ parts: RawPart[]; orders: RawOrder[] }> {
  const conn = await mongoose
    .createConnection(dbUri, { maxPoolSize: 1, serverSelectionTimeoutMS: 2000 })
    .asPromise();
  try {
    const db = got(conn.db);
    const parts = await db.collection<RawPart>('parts').find({}).toArray();
    const orders = await db.collection<RawOrder>('orders').find({}).toArray();
    return { parts, orders };
  } finally {
    await conn.close();
  }
}

/**
 * `availableQty + Σ quantity of live orders == received` for every part, and no order left in a
 * transient hold. Returns the list of problems (empty when it holds).
 */
export function invariantProblems(
  { parts, orders }: { parts: RawPart[]; orders: RawOrder[] },
  received: Map<string, number>,
): string[] {
  const problems: string[] = [];
  const live = new Map<string, number>();
  for (const o of orders) {
    if (o.hold === 'reserving' || o.hold === 'releasing')
      problems.push(`order ${String(o._id)} is ${o.hold}`);
    // Released, expired and tombstones (`void`: an id whose stock went back) hold no stock.
    if (o.hold === 'released' || o.hold === 'void' || o.status === 'expired') continue;
    live.set(String(o.partId), (live.get(String(o.partId)) ?? 0) + o.quantity);
  }
  for (const p of parts) {
    const id = String(p._id);
    const want = received.get(id);
    if (want === undefined) continue;
    const got = p.availableQty + (live.get(id) ?? 0);
    if (got !== want)
      problems.push(`part ${id}: available ${p.availableQty} + live ${live.get(id) ?? 0} = ${got} ≠ ${want}`);
  }
  return problems;
}

/** Five parts with known stock, written straight into the database; returns id → stock received. */
export async function seedParts(dbUri: string): Promise<Map<string, number>> {
  const conn = await mongoose.createConnection(dbUri, { maxPoolSize: 1 }).asPromise();
  const received = new Map<string, number>();
  try {
    for (let i = 0; i < 5; i++) {
      const _id = new mongoose.Types.ObjectId();
      const stock = 3000 + i * 500;
      await got(conn.db)
        .collection('parts')
        .insertOne({
          _id,
          name: `Fault part ${i}`,
          slug: `fault-part-${i}-${_id.toHexString()}`,
          text: 'A part for the fault tests.',
          img: '/images/parts/test.svg',
          priceCents: 1000 + i,
          minOrderQty: 100,
          availableQty: stock,
          createdAt: new Date(),
          updatedAt: new Date(),
        });
      received.set(_id.toHexString(), stock);
    }
  } finally {
    await conn.close();
  }
  return received;
}
