import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { SHIPPING_STATUSES } from '@motoparts/contracts';

const orderSchema = new Schema(
  {
    partsId: { type: Schema.Types.ObjectId, required: true },
    /** Product name at the time of the order. */
    Parts: { type: String, required: true },
    /** The buyer's Firebase uid: who the order belongs to. */
    uid: { type: String },
    /** Buyer email when ordering (shown in answers); never used to decide who may see the order. */
    user: { type: String, required: true },
    userName: { type: String, default: '' },
    qty: { type: Number, required: true, min: 1 },
    unitPriceCents: { type: Number, required: true },
    priceCents: { type: Number, required: true },
    paid: { type: Boolean, required: true, default: false },
    transactionId: { type: String },
    paidAt: { type: Date },
    /** The PaymentIntent we created for this order, and the amount Stripe confirmed creating. */
    paymentIntentId: { type: String },
    paymentIntentAmount: { type: Number },
    status: { type: String, enum: SHIPPING_STATUSES, required: true, default: 'pending' },
  },
  { timestamps: true, strict: 'throw', versionKey: false },
);
// GET /order?user= and GET /orders sort newest first with an `_id` tie-break (api/INDEXES.md).
orderSchema.index({ uid: 1, createdAt: -1, _id: -1 });
// Orders written before accounts were keyed by uid are claimed by email at the first sign-in.
orderSchema.index({ user: 1 });
orderSchema.index({ createdAt: -1, _id: -1 });

export type OrderDoc = InferSchemaType<typeof orderSchema> & { _id: Types.ObjectId };
export const OrderModel = model('Order', orderSchema);
