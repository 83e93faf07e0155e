import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { ORDER_STATUSES } from '@motoparts/contracts';

export const ORDER_HOLDS = ['reserving', 'held', 'releasing', 'released', 'void'] as const;
export type OrderHold = (typeof ORDER_HOLDS)[number];

function requiredOnceHeld(this: { hold?: string }): boolean {
  return this.hold !== 'reserving';
}

const orderSchema = new Schema(
  {
    partsId: { type: Schema.Types.ObjectId, required: true },
    /** Product name at the time of the order (filled in with the price once stock is taken). */
    Parts: { type: String, required: requiredOnceHeld },
    /** The buyer's Firebase uid: who the order belongs to. */
    uid: { type: String },
    /** Buyer email when ordering (shown in answers); never used to decide who may see the order. */
    user: { type: String, required: true },
    userName: { type: String, default: '' },
    qty: { type: Number, required: true, min: 1 },
    unitPriceCents: { type: Number, required: requiredOnceHeld },
    priceCents: { type: Number, required: requiredOnceHeld },
    paid: { type: Boolean, required: true, default: false },
    transactionId: { type: String },
    paidAt: { type: Date },
    /** The PaymentIntent we created for this order, and the amount Stripe confirmed creating. */
    paymentIntentId: { type: String },
    paymentIntentAmount: { type: Number },
    status: { type: String, enum: ORDER_STATUSES, required: true, default: 'pending' },
    /**
     * Where the order's stock hold stands (orders/stock.ts): `reserving` (written, stock maybe
     * taken; written only by earlier versions, which placed the order before taking stock),
     * `held` (stock taken), `releasing` (being cancelled or expired, stock maybe given back),
     * `released` (given back; expired orders stay for the customer to see), `void` (a tombstone
     * the recovery pass writes for an order id whose placing died after taking stock: it keeps a
     * late insert of that order from succeeding; never shown). Orders written before this field
     * existed have none and count as `held`.
     */
    hold: { type: String, enum: ORDER_HOLDS },
    /** What a `releasing` order becomes: deleted (cancelled) or kept as expired. */
    releaseTo: { type: String, enum: ['cancelled', 'expired'] },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// GET /order?user= and GET /orders sort newest first with an `_id` tie-break (api/INDEXES.md).
orderSchema.index({ uid: 1, createdAt: -1, _id: -1 });
// Orders written before accounts were keyed by uid are claimed by email at the first sign-in.
orderSchema.index({ user: 1 });
orderSchema.index({ createdAt: -1, _id: -1 });
// The recovery pass looks only at orders in a transient hold; the expiry pass at unpaid pending ones.
orderSchema.index({ hold: 1 });
orderSchema.index({ paid: 1, status: 1, createdAt: 1 });

export type OrderDoc = InferSchemaType<typeof orderSchema> & { _id: Types.ObjectId };
export const OrderModel = model('Order', orderSchema);

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

/**
 * Each customer's order ids (`_id` = the customer's uid), for My Order on the embedded FerretDB:
 * it pushes only an exact `_id` down to SQLite, so a filter on `uid` reads every order, while this
 * document and then each order are exact `_id` reads. An id is added before its order is written,
 * so the list holds every order of the customer; an id without an order (a refused order, a crash
 * between the two steps, a cancelled order) is skipped when read and pruned once it is old.
 */
const customerOrdersSchema = new Schema(
  {
    _id: { type: String, required: true },
    ids: { type: [String], default: [] },
  },
  { strict: 'throw', versionKey: false },
);

export const CustomerOrdersModel = model('CustomerOrders', customerOrdersSchema);

/**
 * One-off data changes already applied to this database (`_id` = the change's name), so a change
 * that reads every document runs once per database, not at every start.
 */
const dataChangeSchema = new Schema(
  {
    _id: { type: String, required: true },
    doneAt: { type: Date, required: true },
  },
  { strict: 'throw', versionKey: false },
);

export const DataChangeModel = model('DataChange', dataChangeSchema);
