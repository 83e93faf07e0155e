import { Schema, model } from 'mongoose';

/**
 * Stripe events already applied (`_id` = the event's id), recorded after the event's changes: a
 * repeat is answered without doing anything. Every change is conditional as well, so an event
 * repeated before its record is written changes nothing twice. Kept 30 days (Stripe retries for
 * three).
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
