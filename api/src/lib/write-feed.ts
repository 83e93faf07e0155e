import { AsyncLocalStorage } from 'node:async_hooks';
import type { MongooseQueryMiddleware, Query, Schema } from 'mongoose';

/** What a write can have changed: some documents' fields that never move them in a list, or anything. */
export type WriteScope = 'all' | { ids: readonly string[] };

/** A write query as its hooks see it: enough to tell which documents it may have changed. */
export interface WriteQuery {
  op: string;
  filter: Record<string, unknown>;
  update: unknown;
  options: { upsert?: boolean };
}

export type WriteListener = (scope: WriteScope) => void;

/** Subscribes to a collection's writes; the returned function unsubscribes. */
export interface WriteFeed {
  subscribe(listener: WriteListener): () => void;
  /** For a write made through the driver (`Model.collection`), which no Mongoose hook sees. */
  announce(scope: WriteScope): void;
  /**
   * Runs `work`, whose writes that change anything (`all`) are told once, when it ends, instead of
   * one by one; writes of single documents in place, and every write made outside `work` (other
   * requests meanwhile), are told as they happen. For a long run of writes whose caller answers
   * only at the end (an import): each `all` drops every cached answer, and a reader between two
   * of them would load the whole collection again.
   */
  batch<T>(work: () => Promise<T>): Promise<T>;
}

const WRITE_QUERIES: MongooseQueryMiddleware[] = [
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findOneAndReplace',
  'replaceOne',
  'deleteOne',
  'deleteMany',
  'findOneAndDelete',
];

type AnyQuery = Query<unknown, unknown>;

function writeQueryOf(query: AnyQuery): WriteQuery {
  // `op` (the operation name) exists on every Query at runtime but is missing from the typings.
  const { op } = query as unknown as { op?: string };
  return { op: op ?? '', filter: query.getFilter(), update: query.getUpdate(), options: query.getOptions() };
}

/**
 * Tells the subscribers after every write through this schema's model, successful or failed (a
 * failed write may still have been applied, e.g. a timeout after the server wrote). Living in
 * the model, it covers every write path: services, the seed, scripts and tests on the same
 * connection. `scopeOf` narrows a write query to the documents it changed in place; without it,
 * and for document and model writes (create/save, doc.deleteOne(), insertMany, bulkWrite), every
 * write is `all`.
 */
export function writeFeed(
  schema: Schema,
  scopeOf: (query: WriteQuery) => WriteScope = () => 'all',
): WriteFeed {
  const listeners = new Set<WriteListener>();
  // The batch the current write belongs to (followed through awaits, so only `work`'s own writes).
  const batches = new AsyncLocalStorage<{ all: boolean }>();
  const tell = (scope: WriteScope) => {
    for (const listener of listeners) listener(scope);
  };
  const emit = (scope: WriteScope) => {
    const batch = batches.getStore();
    if (scope === 'all' && batch) batch.all = true;
    else tell(scope);
  };
  const fromQuery = (query: AnyQuery) => emit(scopeOf(writeQueryOf(query)));
  const all = () => emit('all');

  schema.post(WRITE_QUERIES, { document: false, query: true }, function (this: AnyQuery) {
    fromQuery(this);
  });
  schema.post(
    WRITE_QUERIES,
    { document: false, query: true, errorHandler: true },
    function (this: AnyQuery, err, _res, next) {
      fromQuery(this);
      next(err);
    },
  );
  schema.post(['save', 'updateOne', 'deleteOne'], { document: true, query: false }, all);
  schema.post(
    ['save', 'updateOne', 'deleteOne'],
    { document: true, query: false, errorHandler: true },
    (err, _r, next) => {
      all();
      next(err);
    },
  );
  schema.post('insertMany', all);
  schema.post('insertMany', { errorHandler: true }, (err, _r, next) => {
    all();
    next(err);
  });
  schema.post('bulkWrite', all);
  schema.post('bulkWrite', { errorHandler: true }, (err, _r, next) => {
    all();
    next(err);
  });

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    announce: emit,
    async batch(work) {
      const batch = { all: false };
      try {
        return await batches.run(batch, work);
      } finally {
        if (batch.all) tell('all');
      }
    },
  };
}
