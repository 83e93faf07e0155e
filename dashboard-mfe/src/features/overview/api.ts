import type { Sales } from '@motoparts/contracts';
import { baseApi, checkoutTag, orderTags, stockTags } from '@motoparts/state';

/**
 * The Overview's figures (GET /sales) and its Release: the admin's cancel of an unpaid order, or
 * of the whole checkout an order is a line of (the pieces go back on sale either way). The page
 * reloads the figures itself after an action: they are made of every order and part, which no
 * one cache tag stands for.
 */
export const overviewApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getSales: build.query<Sales, number>({
      query: (days) => ({ url: '/sales', params: { days } }),
    }),
    releaseOrder: build.mutation<{ success: true }, { orderId: string; partId: string; checkoutId?: string }>(
      {
        query: ({ orderId, checkoutId }) => ({
          url: checkoutId
            ? `/checkout/${encodeURIComponent(checkoutId)}`
            : `/order/${encodeURIComponent(orderId)}`,
          method: 'DELETE',
        }),
        invalidatesTags: (_res, _err, { orderId, partId, checkoutId }) => [
          ...orderTags(orderId),
          ...stockTags(partId),
          ...(checkoutId ? [checkoutTag(checkoutId)] : []),
        ],
      },
    ),
  }),
});

export const { useGetSalesQuery, useReleaseOrderMutation } = overviewApi;
