import type { Order, OrderPaymentResult, PaymentIntent } from '@motoparts/contracts';
import { baseApi, orderTag, orderTags } from '@motoparts/state';

/** The payment page's calls: the order it pays, Stripe's intent for it, and the claim of payment. */
export const paymentsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getOrder: build.query<Order, string>({
      query: (id) => `/order/${encodeURIComponent(id)}`,
      providesTags: (_order, _err, id) => [orderTag(id)],
    }),

    // A POST, but a query: it is "requested on load" of the payment page, and the server hands
    // back the same intent for the same order (idempotency key), so caching it is safe.
    createPaymentIntent: build.query<PaymentIntent, string>({
      query: (orderId) => ({ url: '/create-payment-intent', method: 'POST', body: { orderId } }),
      keepUnusedDataFor: 0,
    }),
    claimPayment: build.mutation<OrderPaymentResult, { id: string; transactionId: string }>({
      query: ({ id, transactionId }) => ({
        url: `/order/${encodeURIComponent(id)}`,
        method: 'PATCH',
        body: { parts: id, transactionId },
      }),
      // Paid shows in My Order and Manage Order as well as here.
      invalidatesTags: (_res, _err, { id }) => orderTags(id),
    }),
  }),
});

export const { useGetOrderQuery, useCreatePaymentIntentQuery, useClaimPaymentMutation } = paymentsApi;
