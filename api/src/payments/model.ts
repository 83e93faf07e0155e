import { Schema, model } from 'mongoose';

/**
 * Stripe events already applied (`_id` = the event's id), recorded after the event's changes: a
 * repeat is answered without doing anything. Every change is conditional as well, so an event
 * repeated before its record is written changes nothing twice. Kept 30 days (`sweepStripeEvents`).
 */
const stripeEventSchema = new Schema(
  {
    _id: { type: String, required: true },
    type: { type: String, required: true },
    at: { type: Date, required: true },
  },
  { strict: 'throw', versionKey: false },
);
stripeEventSchema.index({ at: 1 });

export const StripeEventModel = model('StripeEvent', stripeEventSchema);

/** How long an applied event is remembered: Stripe retries a webhook for up to three days. */
export const STRIPE_EVENT_TTL_MS = 30 * 24 * 60 * 60 * 1000;

/** Forgets events older than the TTL (the server runs it hourly). */
export async function sweepStripeEvents(now = Date.now()): Promise<number> {
  const res = await StripeEventModel.deleteMany({ at: { $lt: new Date(now - STRIPE_EVENT_TTL_MS) } });
  return res.deletedCount;
}
