import mongoose from 'mongoose';
import { poolSize, type Env } from './env';
import type { Logger } from './logger';

/**
 * One Mongoose connection for the process. `bufferCommands: false` plus a short server
 * selection timeout make a database outage surface as a quick error (→ 503), never a hang.
 */
export function mongooseOptions(env: Env): mongoose.ConnectOptions {
  const size = poolSize(env);
  return {
    bufferCommands: false,
    serverSelectionTimeoutMS: env.MONGODB_SERVER_SELECTION_TIMEOUT_MS,
    connectTimeoutMS: env.MONGODB_SERVER_SELECTION_TIMEOUT_MS,
    // Against FerretDB one connection serialises operations, which keeps conditional updates
    // atomic (docs/architecture.md). With a real MongoDB the driver default applies.
    ...(size !== undefined ? { maxPoolSize: size, minPoolSize: Math.min(size, 1) } : {}),
    autoIndex: true,
  };
}

/**
 * Connects, retrying in the background while the database is not there yet: the HTTP server can
 * start and answer 503 on /health until the first connection succeeds.
 */
export async function connectDb(env: Env, logger?: Logger, { retry = false } = {}): Promise<void> {
  mongoose.set('strictQuery', true);
  for (;;) {
    try {
      await mongoose.connect(env.MONGODB_URI, mongooseOptions(env));
      await syncIndexes();
      return;
    } catch (err) {
      if (!retry) throw err;
      logger?.warn({ err: (err as Error).message }, 'database not reachable yet; retrying in 1s');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function syncIndexes(): Promise<void> {
  // Models register themselves on import; make sure their indexes exist before traffic arrives.
  await Promise.all(Object.values(mongoose.models).map((m) => m.createIndexes()));
}

export async function disconnectDb(): Promise<void> {
  await mongoose.disconnect();
}

/** True when the database answers a ping within the selection timeout. */
export async function pingDb(): Promise<boolean> {
  const db = mongoose.connection.db;
  if (!db || mongoose.connection.readyState !== mongoose.ConnectionStates.connected) {
    // readyState can say "disconnected" briefly while the driver re-establishes; try anyway.
    if (!db) return false;
  }
  try {
    await db.admin().ping();
    return true;
  } catch {
    return false;
  }
}

const UNAVAILABLE_NAMES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoExpiredSessionError',
]);

/** Whether an error means "the database is unreachable" (→ 503) rather than a bug. */
export function isDbUnavailableError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (UNAVAILABLE_NAMES.has(err.name)) return true;
  // Mongoose with bufferCommands:false before the first connection completes.
  if (
    /before initial connection is complete|Client must be connected|connection .* closed/i.test(err.message)
  )
    return true;
  const labels = (err as { errorLabels?: unknown }).errorLabels;
  return Array.isArray(labels) && labels.includes('ResetPool');
}
