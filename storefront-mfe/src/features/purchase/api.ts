import type { Order } from '@motoparts/contracts';
import { baseApi, LIST_TAGS, stockTags } from '@motoparts/state';

/** What the purchase page sends (docs/product.md); the server recomputes price and product name. */
export interface PlaceOrderArgs {
  partsId: string;
  qty: number;
  userName: string;
  /** One per Order now press: a retried or repeated request with it creates no second order. */
  idempotencyKey: string;
}

/** Ordering belongs to the storefront, so the endpoint is injected here, not in the shared kit. */
export const ordersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    placeOrder: build.mutation<Order, PlaceOrderArgs>({
      query: ({ idempotencyKey, ...body }) => ({
        url: '/order',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      // The stock shown must follow the server: after an order (or a refused one) refetch the
      // part and the lists it is in; the new order shows in My Order and Manage Order.
      invalidatesTags: (_order, _err, { partsId }) => [
        ...stockTags(partsId),
        LIST_TAGS.myOrders,
        LIST_TAGS.allOrders,
      ],
    }),
  }),
});

export const { usePlaceOrderMutation } = ordersApi;
