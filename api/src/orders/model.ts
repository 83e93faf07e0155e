import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { ORDER_EVENTS, ORDER_STATUSES } from '@motoparts/contracts';
import { outboxFields, outboxHooks, outboxIndex } from '../mail/outbox-model';

export const ORDER_HOLDS = ['reserving', 'held', 'releasing', 'released', 'void'] as const;
export type OrderHold = (typeof ORDER_HOLDS)[number];

function requiredOnceHeld(this: { hold?: string }): boolean {
  return this.hold !== 'reserving';
}

const orderSchema = new Schema(
  {
    /** The part ordered (`partsId` on the wire). */
    partId: { type: Schema.Types.ObjectId, required: true },
    /** Product name at the time of the order (`Parts` on the wire), set with the price when stock is taken. */
    partName: { type: String, required: requiredOnceHeld },
    /** The buyer's Firebase uid: who the order belongs to. */
    uid: { type: String },
    /** Buyer email when ordering (shown in answers); never used to decide who may see the order. */
    user: { type: String, required: true },
    userName: { type: String, default: '' },
    /** Pieces ordered (`qty` on the wire). */
    quantity: { type: Number, required: true, min: 1 },
    unitPriceCents: { type: Number, required: requiredOnceHeld },
    priceCents: { type: Number, required: requiredOnceHeld },
    paid: { type: Boolean, required: true, default: false },
    transactionId: { type: String },
    paidAt: { type: Date },
    /** The Stripe event that marked it paid (a repeat of it then changes nothing). */
    paidEventId: { type: String },
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
    /** What a `releasing` order becomes: deleted (cancelled), or kept as expired or refunded. */
    releaseTo: { type: String, enum: ['cancelled', 'expired', 'refunded'] },
    /** The checkout this order is a line of (orders/checkout.ts): paid, cancelled and expired with it. */
    checkoutId: { type: String },
    /** The shipment, as the admin gave it. */
    carrier: { type: String },
    trackingNumber: { type: String },
    /** Cents given back to the buyer so far (refunds from the shop or Stripe's dashboard, a lost dispute). */
    refundedCents: { type: Number },
    /**
     * A refund the shop has asked Stripe for and not yet recorded (orders/refunds.ts): recorded
     * before Stripe is called, so a crash in between is finished by the recovery pass with the
     * same idempotency key, and a `charge.refunded` for it is known as the shop's own.
     */
    refunding: {
      type: new Schema(
        {
          amountCents: { type: Number, required: true },
          key: { type: String, required: true },
          /** `shop`: asked of Stripe by the shop; `provider`: Stripe told us of it (its dashboard). */
          source: { type: String, enum: ['shop', 'provider'], required: true },
          at: { type: Date, required: true },
        },
        { _id: false },
      ),
    },
    /** The pieces went back to stock after a refund (given back once: orders/stock.ts). */
    restocked: { type: Boolean },
    /** The status to return to when a dispute is won. */
    statusBeforeDispute: { type: String, enum: ORDER_STATUSES },
    /** What happened after placing and payment (those two come from createdAt and paidAt). */
    history: {
      type: [
        new Schema(
          {
            event: { type: String, enum: ORDER_EVENTS, required: true },
            at: { type: Date, required: true },
            amountCents: Number,
            note: String,
          },
          { _id: false },
        ),
      ],
      default: undefined,
    },
    ...outboxFields,
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// GET /order?user= and GET /orders sort newest first with an `_id` tie-break (api/INDEXES.md).
orderSchema.index({ uid: 1, createdAt: -1, _id: -1 });
// Manage Order's search by the buyer's address, newest first; its prefix serves the claim by email
// of orders written before accounts were keyed by uid, at the first sign-in.
orderSchema.index({ user: 1, createdAt: -1, _id: -1 });
orderSchema.index({ createdAt: -1, _id: -1 });
// The recovery pass looks only at orders in a transient hold.
orderSchema.index({ hold: 1 });
// Manage Order's filters (paid, status, both; a status alone as `paid: {$in: [false, true]}`),
// newest first, and the expiry pass (unpaid, pending, placed before a time).
orderSchema.index({ paid: 1, status: 1, createdAt: -1, _id: -1 });
// The Overview reads paid orders by payment time, and those paid before it was recorded (no
// `paidAt`) by placing time: both ranges of this one index (sales/read-models.ts).
orderSchema.index({ paidAt: 1, createdAt: 1 });
// The mail worker reads the few orders with mail to send; charge and dispute events find orders
// by their payment.
orderSchema.index(...outboxIndex);
outboxHooks(orderSchema, 'orders');
orderSchema.index({ transactionId: 1 }, { sparse: true });

/** Orders never completed (left `reserving` by earlier versions) and tombstones are not shown. */
export const HIDDEN_HOLDS: readonly (OrderHold | null | undefined)[] = ['reserving', 'void'];
export const isListed = (hold: OrderHold | null | undefined) => !HIDDEN_HOLDS.includes(hold);

/** Unpaid, pending and holding stock (or on its way to): what the per-customer cap counts. */
export function isOpen(order: Pick<OrderDoc, 'paid' | 'status' | 'hold'>): boolean {
  return !order.paid && order.status === 'pending' && order.hold !== 'released' && order.hold !== 'releasing';
}

/**
 * What a write did to the orders, for what the embedded database's API keeps in memory about
 * them (the admin's list, orders/timeline.ts; My Order's pages, orders/service.ts): an order saved
 * (with its customer, time and hold), one order removed, given a hold or changed in place, or
 * something these hooks cannot narrow down (`unknown`). Richer than lib/write-feed's scopes,
 * which say only which documents changed: the list needs the new order's time and hold.
 */
export type OrderChange =
  | {
      kind: 'saved';
      id: string;
      uid: string | null | undefined;
      createdAt: Date | null | undefined;
      hold: OrderHold | null | undefined;
      /** Unpaid and pending: what the expiry pass looks for. */
      open: boolean;
      /** The checkout it is a line of: the open-order cap counts a checkout once. */
      checkoutId?: string | null;
    }
  | { kind: 'removed'; id: string }
  | { kind: 'hold'; id: string; hold: OrderHold }
  /** Changed in place (status, payment …): where it is listed is unchanged. */
  | { kind: 'updated'; id: string }
  | { kind: 'unknown' };

const changeListeners = new Set<(change: OrderChange) => void>();
export const orderChanges = {
  subscribe(listener: (change: OrderChange) => void): () => void {
    changeListeners.add(listener);
    return () => changeListeners.delete(listener);
  },
};
/** Tells the listeners of a change; the hooks below call it, and so does a write through the driver. */
export const announce = (change: OrderChange) => {
  for (const listener of changeListeners) listener(change);
};

/** The one order an exact `_id` filter names, if it names one. */
function exactId(filter: Record<string, unknown>): string | undefined {
  const id = filter._id;
  return typeof id === 'string' || (id && typeof id === 'object' && '_bsontype' in id)
    ? String(id)
    : undefined;
}

type SavedOrder = {
  _id: unknown;
  checkoutId?: string | null;
  uid?: string | null;
  createdAt?: Date | null;
  hold?: OrderHold | null;
  paid?: boolean | null;
  status?: string | null;
};
const saved = (doc: SavedOrder): OrderChange => ({
  kind: 'saved',
  id: String(doc._id),
  uid: doc.uid,
  createdAt: doc.createdAt,
  hold: doc.hold,
  open: doc.paid === false && doc.status === 'pending',
  checkoutId: doc.checkoutId,
});
orderSchema.post('save', (doc: SavedOrder) => announce(saved(doc)));
orderSchema.post('insertMany', (docs: SavedOrder[]) => docs.forEach((d) => announce(saved(d))));
// A failed write may still have been applied (a timeout after the server wrote it).
const failed = (err: Error, _res: unknown, next: (e?: Error) => void) => {
  announce({ kind: 'unknown' });
  next(err);
};
orderSchema.post('save', { errorHandler: true }, failed);
orderSchema.post('insertMany', { errorHandler: true }, failed);
orderSchema.post('bulkWrite', { errorHandler: true }, failed);
orderSchema.post(
  ['deleteOne', 'findOneAndDelete', 'deleteMany', 'updateOne', 'findOneAndUpdate', 'updateMany'],
  { document: false, query: true, errorHandler: true },
  failed,
);
orderSchema.post('bulkWrite', () => announce({ kind: 'unknown' }));
orderSchema.post(
  ['deleteOne', 'findOneAndDelete', 'deleteMany'],
  { document: false, query: true },
  function (this: { getFilter(): Record<string, unknown> }) {
    const id = exactId(this.getFilter());
    announce(id ? { kind: 'removed', id } : { kind: 'unknown' });
  },
);
orderSchema.post(
  ['updateOne', 'findOneAndUpdate', 'updateMany'],
  { document: false, query: true },
  function (this: {
    getFilter(): Record<string, unknown>;
    getUpdate(): unknown;
    getOptions(): { upsert?: boolean };
  }) {
    const update = (this.getUpdate() ?? {}) as { $set?: { hold?: OrderHold }; hold?: OrderHold };
    const hold = update.$set?.hold ?? update.hold;
    const id = exactId(this.getFilter());
    if (!id || this.getOptions().upsert) announce({ kind: 'unknown' });
    else announce(hold === undefined ? { kind: 'updated', id } : { kind: 'hold', id, hold });
  },
);

export type OrderDoc = InferSchemaType<typeof orderSchema> & { _id: Types.ObjectId };

/**
 * What an order's answer is made of (orders/service.ts `toOrder`), whether it is listed and whose
 * it is: the part of an order the admin's in-memory list keeps (orders/timeline.ts), ids as strings.
 */
export type OrderRow = Pick<
  OrderDoc,
  | 'partName'
  | 'user'
  | 'userName'
  | 'quantity'
  | 'priceCents'
  | 'paid'
  | 'transactionId'
  | 'status'
  | 'hold'
  | 'uid'
  | 'checkoutId'
  | 'carrier'
  | 'trackingNumber'
  | 'refundedCents'
  | 'history'
> & {
  /** When Stripe confirmed the payment (a Date, or ms in a kept row). */
  paidAt?: Date | number | null;
  _id: unknown;
  partId: unknown;
  /** A document's Date, or the kept row's time in ms (a number is a sixth of a Date's memory). */
  createdAt?: Date | number | null;
};
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
 * is one conditional update on one small document. Used with MONGODB_URI only: the embedded
 * database's one API process counts them in memory (orders/open-slots.ts). It may briefly list
 * an order that is no longer open (a crash between steps); such entries are pruned when they
 * would refuse an order.
 */
const openOrdersSchema = new Schema(
  {
    _id: { type: String, required: true },
    open: { type: [String], default: [] },
  },
  { strict: 'throw', versionKey: false },
);

// A hold is released by its id alone (a payment does not read its order back).
openOrdersSchema.index({ open: 1 });

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
 * Refunds in flight (`_id` = the order id), written before the refund is recorded on the order and
 * deleted once it is finished: the recovery pass reads this short list, never every order
 * (orders/refunds.ts).
 */
export const OrderRefundNoteModel = model(
  'OrderRefundNote',
  new Schema(
    { _id: { type: String, required: true }, at: { type: Date, required: true } },
    { strict: 'throw', versionKey: false },
  ),
);

/**
 * Orders of the email-keyed era (written without a `uid`) by the address they were placed under
 * (`_id`), for the first sign-in of that address on the embedded FerretDB, where a filter on
 * `user` reads every order. Filled once per database; the sign-in that claims the orders deletes
 * the address's entry. Nothing writes an order without a uid any more.
 */
const legacyOrdersSchema = new Schema(
  {
    _id: { type: String, required: true },
    ids: { type: [String], default: [] },
  },
  { strict: 'throw', versionKey: false },
);

export const LegacyOrdersModel = model('LegacyOrders', legacyOrdersSchema);

/** Adds order ids to an address's legacy list (one exact `_id` upsert). */
export async function addLegacyOrderIds(email: string, orderIds: string[]): Promise<void> {
  await LegacyOrdersModel.updateOne(
    { _id: email },
    { $addToSet: { ids: { $each: orderIds } } },
    { upsert: true },
  );
}

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

/** A checkout's life (orders/checkout.ts); each move is one conditional update of its document. */
export const CHECKOUT_STATES = ['reserving', 'placed', 'paid', 'releasing', 'released', 'failed'] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

const checkoutLineSchema = new Schema(
  {
    /** The spec Order this line becomes (its id is chosen before any stock is taken). */
    orderId: { type: String, required: true },
    partId: { type: String, required: true },
    partName: { type: String, required: true },
    quantity: { type: Number, required: true, min: 1 },
    unitPriceCents: { type: Number, required: true },
    priceCents: { type: Number, required: true },
  },
  { _id: false },
);

/**
 * One checkout: many lines placed together, paid by one PaymentIntent, cancelled and expired
 * together. Writing it is the commit point of the all-or-nothing placing (until then it exists
 * only as its note's draft): `placed` (every line's stock taken; a crash rolls it forward, writing
 * the orders), `paid`, `releasing` (cancelled or expired: lines being given back), `released`,
 * `failed` (rolled back: nothing holds stock). `reserving` is read only: checkouts placed by
 * earlier versions were written first and committed by this move.
 */
const checkoutSchema = new Schema(
  {
    _id: { type: String, required: true },
    uid: { type: String, required: true },
    user: { type: String, required: true },
    userName: { type: String, default: '' },
    lines: { type: [checkoutLineSchema], required: true },
    totalCents: { type: Number, required: true },
    state: { type: String, enum: CHECKOUT_STATES, required: true },
    releaseTo: { type: String, enum: ['cancelled', 'expired'] },
    address: { type: String, required: true },
    phone: { type: String, required: true },
    paymentIntentId: { type: String },
    transactionId: { type: String },
    paidAt: { type: Date },
    /** The Stripe event that marked it paid. */
    paidEventId: { type: String },
    ...outboxFields,
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
checkoutSchema.index(...outboxIndex);
outboxHooks(checkoutSchema, 'checkouts');

export type CheckoutDoc = InferSchemaType<typeof checkoutSchema>;
export type CheckoutLine = InferSchemaType<typeof checkoutLineSchema>;
export const CheckoutModel = model('Checkout', checkoutSchema);

/**
 * Checkouts whose state is moving (placing, paying, releasing), one small document each (`_id` =
 * the checkout id), written before the move and deleted once it is finished: the recovery pass
 * reads this short list to finish or undo what a crash interrupted, instead of every checkout.
 * A placing's note carries the checkout it is about to write (`draft`): until that checkout
 * exists, the note is all there is of it, and all a rollback needs.
 */
const checkoutDraftSchema = new Schema(
  {
    uid: { type: String, required: true },
    user: { type: String, required: true },
    userName: { type: String, default: '' },
    lines: { type: [checkoutLineSchema], required: true },
    totalCents: { type: Number, required: true },
    address: { type: String, required: true },
    phone: { type: String, required: true },
  },
  { _id: false },
);
const checkoutNoteSchema = new Schema(
  {
    _id: { type: String, required: true },
    at: { type: Date, required: true },
    draft: { type: checkoutDraftSchema },
  },
  { strict: 'throw', versionKey: false },
);

/** A placing's checkout as its note keeps it (a plain object, as read with `lean`). */
export interface CheckoutDraft extends Omit<InferSchemaType<typeof checkoutDraftSchema>, 'lines'> {
  lines: CheckoutLine[];
}

export const CheckoutNoteModel = model('CheckoutNote', checkoutNoteSchema);

/**
 * Each customer's cart (`_id` = uid): the lines and the unit price each was added at, so a price
 * that changed since is shown, not charged silently. At most 50 lines.
 */
const cartLineSchema = new Schema(
  {
    partId: { type: String, required: true },
    quantity: { type: Number, required: true, min: 1 },
    unitPriceCents: { type: Number, required: true },
  },
  { _id: false },
);
const cartSchema = new Schema(
  {
    _id: { type: String, required: true },
    lines: { type: [cartLineSchema], default: [] },
    /** Bumped by every write: a change is written only on the version it read. */
    v: { type: Number, default: 0 },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);

export type CartDoc = InferSchemaType<typeof cartSchema>;
export const CartModel = model('Cart', cartSchema);
