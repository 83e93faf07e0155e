import type { Order, ShippingStatus } from '@motoparts/contracts';
import { baseApi, LIST_TAGS, orderTag, orderTags, stockTags } from '@motoparts/state';
import { ADMIN_PAGE_SIZE, toListPage, type ListPage } from '../../lib/list-page';

/** A customer's own orders are few; one page of the API's maximum size covers them. */
const MY_ORDERS_LIMIT = 100;

/**
 * My Order and Manage Order, injected into the one shared `baseApi` so the cache, the bearer
 * token and the 401 handling are the shell's. Cancelling an order also refreshes the stock of its
 * part (the server puts the pieces back).
 */
export const ordersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getMyOrders: build.query<Order[], string>({
      query: (email) => ({ url: '/order', params: { user: email, limit: MY_ORDERS_LIMIT } }),
      // docs/product.md: on My Order a 401 *or* 403 signs the user out and clears the token.
      extraOptions: { signOutOnForbidden: true },
      providesTags: (orders) => [LIST_TAGS.myOrders, ...(orders?.map((o) => orderTag(o._id)) ?? [])],
    }),
    cancelOrder: build.mutation<{ success: true }, { id: string; partsId: string }>({
      query: ({ id }) => ({ url: `/order/${encodeURIComponent(id)}`, method: 'DELETE' }),
      // The server puts the reserved pieces back in stock, so the part's numbers change too.
      invalidatesTags: (_res, _err, { id, partsId }) => [...orderTags(id), ...stockTags(partsId)],
    }),

    getAllOrders: build.query<ListPage<Order>, number>({
      query: (page) => ({ url: '/orders', params: { page, limit: ADMIN_PAGE_SIZE } }),
      transformResponse: (orders: Order[], meta) => toListPage(orders, meta),
      providesTags: (list) => [LIST_TAGS.allOrders, ...(list?.items.map((o) => orderTag(o._id)) ?? [])],
    }),
    setShippingStatus: build.mutation<Order, { id: string; status: ShippingStatus; page: number }>({
      query: ({ id, status }) => ({
        url: `/order/${encodeURIComponent(id)}/status`,
        method: 'PATCH',
        body: { status },
      }),
      // Optimistic: the label flips at once, and flips back if the server refuses.
      async onQueryStarted({ id, status, page }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          ordersApi.util.updateQueryData('getAllOrders', page, (list) => {
            const order = list.items.find((o) => o._id === id);
            if (order) order.status = status;
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
        }
      },
    }),
  }),
});

export const {
  useGetMyOrdersQuery,
  useCancelOrderMutation,
  useGetAllOrdersQuery,
  useSetShippingStatusMutation,
} = ordersApi;
