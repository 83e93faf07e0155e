import type { PartCategory } from '@motoparts/contracts';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import mongoose from 'mongoose';
import { createApp } from '../../app';
import { connectDb, disconnectDb, syncIndexes } from '../../lib/db';
import { loadEnv, type Env } from '../../lib/env';
import { createLogger, type Logger } from '../../lib/logger';
import { OrderModel } from '../../orders/model';
import { PartModel } from '../../parts/model';
import { toCents } from '../../lib/money';
import { freePort, kill, startFerret } from './faults';

/** Same server, another database: each test file gets its own so files never interfere. */
export function withDatabase(uri: string, dbName: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!m) throw new Error(`cannot parse MONGODB_URI ${uri}`);
  return `${m[1]}/${dbName}${m[2] ?? ''}`;
}

export interface TestApp {
  env: Env;
  base: string;
  close(): Promise<void>;
}

/**
 * The real app on a random port against a fresh database named after the test file. Against the
 * embedded FerretDB each file gets a FerretDB process of its own: one long-lived FerretDB serving
 * the whole suite's dozen files (hundreds of connections, index builds and dropped databases)
 * stopped answering new connections part-way through (see README, known limits).
 */
export async function startTestApp(
  dbName: string,
  overrides: Record<string, string> = {},
  { logger }: { logger?: Logger } = {},
): Promise<TestApp> {
  let ferret: { child: ChildProcess; dataDir: string } | undefined;
  // Two suites may run at once against one MongoDB (scripts/test.mjs): each names its own databases.
  const name = `mp_test_${dbName}${process.env.TEST_DATABASE_SUFFIX ?? ''}`;
  let uri = withDatabase(process.env.MONGODB_URI ?? '', name);
  if (process.env.MONGODB_EMBEDDED === 'true' && overrides.MONGODB_URI === undefined) {
    const port = await freePort();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `motoparts-${dbName}-`));
    ferret = { child: await startFerret(port, dataDir), dataDir };
    uri = `mongodb://127.0.0.1:${port}/${name}`;
  }
  const env = loadEnv({
    ...process.env,
    NODE_ENV: 'test',
    MONGODB_URI: uri,
    ...overrides,
  });
  await connectDb(env);
  await mongoose.connection.dropDatabase();
  await syncIndexes(env);
  const app = createApp({ env, logger: logger ?? createLogger(env) });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    env,
    base: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await disconnectDb();
      if (ferret) {
        await kill(ferret.child);
        rmSync(ferret.dataDir, { recursive: true, force: true });
      }
    },
  };
}

export interface Res<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  text: string;
}

export interface ReqOptions {
  token?: string;
  body?: unknown;
  /** Sent as-is (for malformed JSON and friends). */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  opts: ReqOptions = {},
): Promise<Res<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Buffer | undefined;
  if (opts.raw !== undefined) body = opts.raw;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = text;
  }
  return { status: res.status, body: parsed as T, headers: res.headers, text };
}

/** What `work` gave, or "still waiting after N s" when it took longer (a hang fails the test). */
export async function settledWithin<T>(work: Promise<T>, ms: number): Promise<T | string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<string>(
        (resolve) => (timer = setTimeout(() => resolve(`still waiting after ${ms / 1000} s`), ms)),
      ),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts paying `orderId` as its customer (POST /create-payment-intent) and returns the
 * PaymentIntent's id: the one transaction id PATCH /order/:id then accepts for that order.
 */
export async function startPayment(base: string, token: string, orderId: string): Promise<string> {
  const res = await call(base, 'POST', '/create-payment-intent', { token, body: { orderId } });
  if (res.status !== 200) throw new Error(`create-payment-intent failed: ${res.status} ${res.text}`);
  const order = await OrderModel.findById(orderId, { paymentIntentId: 1 }).lean<{
    paymentIntentId?: string;
  }>();
  if (!order?.paymentIntentId) throw new Error('the order has no PaymentIntent');
  return order.paymentIntentId;
}

export async function insertPart(
  overrides: Partial<{
    name: string;
    price: number;
    minOrderQty: number;
    availableQty: number;
    text: string;
    category: PartCategory;
    /** An explicit id (its timestamp decides the `newest` order). */
    id: string;
  }> = {},
): Promise<string> {
  const name = overrides.name ?? `Test part ${Math.random().toString(36).slice(2, 8)}`;
  const doc = await PartModel.create({
    ...(overrides.id ? { _id: overrides.id } : {}),
    name,
    slug: `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Math.random().toString(36).slice(2, 8)}`,
    text: overrides.text ?? 'A part used by the tests.',
    img: '/images/parts/test.svg',
    priceCents: toCents(overrides.price ?? 12.5),
    minOrderQty: overrides.minOrderQty ?? 100,
    availableQty: overrides.availableQty ?? 1000,
    ...(overrides.category ? { category: overrides.category } : {}),
  });
  return String(doc._id);
}
