import mongoose, { type mongo } from 'mongoose';
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
    // `syncIndexes` decides which indexes exist; on the embedded database not every declared one.
    autoIndex: false,
  };
}

/**
 * Connects, retrying in the background while the database is not there yet: the HTTP server can
 * start and answer 503 on /health until the first connection succeeds.
 */
export async function connectDb(env: Env, logger?: Logger, { retry = false } = {}): Promise<void> {
  mongoose.set('strictQuery', 'throw');
  for (;;) {
    try {
      await mongoose.connect(env.MONGODB_URI, mongooseOptions(env));
      await syncIndexes(env);
      return;
    } catch (err) {
      if (!retry) throw err;
      logger?.warn({ err: (err as Error).message }, 'database not reachable yet; retrying in 1s');
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/**
 * Makes sure the models' indexes exist before traffic arrives (models register on import). The
 * embedded FerretDB answers no query from a secondary index, only from `_id` (api/INDEXES.md,
 * note 5), yet updates every one of them on each write of its collection: there only the unique
 * ones are created (they enforce the natural keys), and secondary ones an earlier start created
 * are dropped. On the scale data set that took a fifth off the database's time per stock update and
 * a quarter per order insert.
 */
export async function syncIndexes(env: Pick<Env, 'MONGODB_EMBEDDED'>): Promise<void> {
  const models = Object.values(mongoose.models);
  if (!env.MONGODB_EMBEDDED) {
    await Promise.all(models.map((m) => m.createIndexes()));
    return;
  }
  await Promise.all(
    models.map(async (m) => {
      for (const [fields, options] of m.schema.indexes()) {
        if (options.unique)
          await m.collection.createIndex(
            fields as mongo.IndexSpecification,
            options as mongo.CreateIndexesOptions,
          );
      }
      for (const index of await existingIndexes(m.collection)) {
        if (index.name && index.name !== '_id_' && !index.unique) await m.collection.dropIndex(index.name);
      }
    }),
  );
}

/** A collection's indexes; none while it does not exist yet. */
async function existingIndexes(collection: mongoose.Collection): Promise<mongo.IndexDescriptionInfo[]> {
  try {
    return await collection.indexes();
  } catch (err) {
    if ((err as { codeName?: unknown }).codeName === 'NamespaceNotFound') return [];
    throw err;
  }
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
