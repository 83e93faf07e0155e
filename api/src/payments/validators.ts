import { z } from 'zod';

/** POST /webhooks/stripe: the header that signs the raw body (checked by the route). */
export const webhookHeaders = z.object({
  'Stripe-Signature': z.string().meta({ description: "Stripe's signature over the raw body." }),
});

/** POST /webhooks/stripe answer. */
export const webhookReceivedSchema = z.object({ received: z.literal(true) });
