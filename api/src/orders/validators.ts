import { orderSchema } from '@motoparts/contracts';
import { z } from 'zod';
import { idParams } from '../http/validate';

/** `/order/:id`: the order's id. */
export const orderIdParams = idParams('order');

/** An order as its buyer (or an admin) sees it, named `Order` in the API document. */
export const OrderSchema = orderSchema.meta({ id: 'Order' });

/** What an Idempotency-Key may be: 1 to 255 visible ASCII characters (the one check of it). */
export const idempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1 to 255 visible ASCII characters.');

/** POST /order's optional header (parsed by the route, after the rate limit). */
export const placeOrderHeaders = z.object({
  'Idempotency-Key': idempotencyKeySchema.optional().meta({
    description:
      'The same key and body within 24 h return the first answer and place nothing; another body is a 422.',
  }),
});
