import { Schema, model, type InferSchemaType } from 'mongoose';

/**
 * One document per (customer, Idempotency-Key) of POST /order, keyed by a hash of both so the
 * lookup is an exact `_id` read shared by every API process. It remembers the request body's
 * hash, the order id the first request chose, and the first answer once there is one.
 */
const orderKeySchema = new Schema(
  {
    _id: { type: String, required: true },
    bodyHash: { type: String, required: true },
    orderId: { type: String, required: true },
    /** The first answer: HTTP status and JSON body. Absent while the first request runs. */
    status: { type: Number },
    body: { type: Schema.Types.Mixed },
    createdAt: { type: Date, required: true },
  },
  { strict: 'throw', versionKey: false },
);
// Keys older than 24 h are ignored and deleted by the recovery pass (FerretDB has no TTL indexes).
orderKeySchema.index({ createdAt: 1 });

export type OrderKeyDoc = InferSchemaType<typeof orderKeySchema>;
export const OrderKeyModel = model('OrderKey', orderKeySchema);

/**
 * Each customer's open (unpaid, not expired) order ids, keyed by the customer so the cap check
 * is one conditional update on one small document. It may briefly list an order that is no
 * longer open (a crash between steps); such entries are pruned when they would refuse an order.
 */
const openOrdersSchema = new Schema(
  {
    _id: { type: String, required: true },
    open: { type: [String], default: [] },
  },
  { strict: 'throw', versionKey: false },
);

export const OpenOrdersModel = model('OpenOrders', openOrdersSchema);

/**
 * Orders being cancelled or expired right now, one small document each (`_id` = the order id),
 * written before the order is claimed and deleted once it is released. The recovery pass reads
 * this short list to find releases a crash interrupted, instead of scanning every order.
 */
const orderReleaseSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { strict: 'throw', versionKey: false },
);

export const OrderReleaseModel = model('OrderRelease', orderReleaseSchema);
