import type { MongooseQueryMiddleware, Query, Schema } from 'mongoose';
import { catalogWriteScope, type WriteScope } from '../lib/catalog-cache';

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

function scopeOf(query: AnyQuery): WriteScope {
  // `op` (the operation name) exists on every Query at runtime but is missing from the typings.
  const { op } = query as unknown as { op?: string };
  return catalogWriteScope(op ?? '', query.getFilter(), query.getUpdate(), query.getOptions());
}

/**
 * Calls `invalidate` after every write through this schema's model, successful or failed (a
 * failed write may still have been applied, e.g. a timeout after the server wrote). Living in
 * the model layer, it covers every write path: services, the seed, tests.
 */
export function invalidateOnWrite(schema: Schema, invalidate: (scope: WriteScope) => void): void {
  schema.post(WRITE_QUERIES, { document: false, query: true }, function (this: AnyQuery) {
    invalidate(scopeOf(this));
  });
  schema.post(
    WRITE_QUERIES,
    { document: false, query: true, errorHandler: true },
    function (this: AnyQuery, err, _res, next) {
      invalidate(scopeOf(this));
      next(err);
    },
  );
  // Document and model writes (create/save, doc.deleteOne(), insertMany, bulkWrite): everything.
  const all = () => invalidate('all');
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
}
