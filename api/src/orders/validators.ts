import { cartSchema, checkoutSchema, objectIdSchema, orderSchema } from '@motoparts/contracts';
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

/** `/checkout/:id`: the checkout's id. */
export const checkoutIdParams = idParams('checkout');

/** `/cart/lines/:partId`: the part a cart line is for. */
export const cartLineParams = z.object({
  partId: objectIdSchema.meta({ description: 'The part’s id.', pattern: '^[0-9a-fA-F]{24}$' }),
});

/** A cart, a checkout and a refused checkout's lines, named in the API document. */
export const CartSchema = cartSchema.meta({ id: 'Cart' });
export const CheckoutSchema = checkoutSchema.meta({ id: 'Checkout' });
