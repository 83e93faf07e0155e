import type { Cart, Checkout, CheckoutInput, PaymentIntent } from '@motoparts/contracts';
// The kit by its package name, not by relative paths: this entry is a shared module of its own,
// and a relative import would put a second copy of baseApi (and its cache, outside the store) into
// its chunk. By name, it is the page's one `@motoparts/state`, whichever container provides either.
import { baseApi, checkoutTag, LIST_TAGS, type AppTag } from '@motoparts/state';

/** What a placed, paid or cancelled checkout changes: its orders' lists, its parts' stock, itself. */
const checkoutChanged = (id: string): AppTag[] => [
  checkoutTag(id),
  LIST_TAGS.myOrders,
  LIST_TAGS.allOrders,
  LIST_TAGS.parts,
];

/**
 * The customer's cart and its checkout (api: /cart, /checkout). In the kit rather than in the
 * storefront because the shell's top bar shows the cart's count on every page, and the dashboard
 * pays and cancels checkouts and puts their lines back in the cart. Its own entry
 * (`@motoparts/state/cart`), not the kit's index: a visitor's first load does not carry it, only
 * the pages that use it and a signed-in customer's top bar.
 */
export const cartApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCart: build.query<Cart, void>({
      query: () => '/cart',
      providesTags: [LIST_TAGS.cart],
    }),
    setCartLine: build.mutation<Cart, { partId: string; qty: number }>({
      query: ({ partId, qty }) => ({ url: `/cart/lines/${partId}`, method: 'PUT', body: { qty } }),
      invalidatesTags: [LIST_TAGS.cart],
    }),
    removeCartLine: build.mutation<Cart, string>({
      query: (partId) => ({ url: `/cart/lines/${partId}`, method: 'DELETE' }),
      invalidatesTags: [LIST_TAGS.cart],
    }),
    placeCheckout: build.mutation<Checkout, CheckoutInput & { idempotencyKey: string }>({
      query: ({ idempotencyKey, ...body }) => ({
        url: '/checkout',
        method: 'POST',
        body,
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
      invalidatesTags: (checkout) => [
        LIST_TAGS.cart,
        ...(checkout ? checkoutChanged(checkout.checkoutId) : []),
      ],
    }),
    getCheckout: build.query<Checkout, string>({
      query: (id) => `/checkout/${id}`,
      providesTags: (_c, _e, id) => [checkoutTag(id)],
    }),
    cancelCheckout: build.mutation<{ success: true }, string>({
      query: (id) => ({ url: `/checkout/${id}`, method: 'DELETE' }),
      invalidatesTags: (_r, _e, id) => checkoutChanged(id),
    }),
    createCheckoutIntent: build.mutation<PaymentIntent, string>({
      query: (checkoutId) => ({ url: '/create-payment-intent', method: 'POST', body: { checkoutId } }),
    }),
    claimCheckoutPayment: build.mutation<Checkout, { checkoutId: string; transactionId: string }>({
      query: ({ checkoutId, transactionId }) => ({
        url: `/checkout/${checkoutId}`,
        method: 'PATCH',
        body: { transactionId },
      }),
      invalidatesTags: (_r, _e, { checkoutId }) => checkoutChanged(checkoutId),
    }),
    orderCheckoutAgain: build.mutation<Cart, string>({
      query: (id) => ({ url: `/checkout/${id}/order-again`, method: 'POST' }),
      invalidatesTags: [LIST_TAGS.cart],
    }),
  }),
});

export const {
  useGetCartQuery,
  useSetCartLineMutation,
  useRemoveCartLineMutation,
  usePlaceCheckoutMutation,
  useGetCheckoutQuery,
  useCancelCheckoutMutation,
  useCreateCheckoutIntentMutation,
  useClaimCheckoutPaymentMutation,
  useOrderCheckoutAgainMutation,
} = cartApi;
