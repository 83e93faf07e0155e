import type { Order, OrderStatus, ShippingStatusInput } from '@motoparts/contracts';
import { baseApi, LIST_TAGS, orderTag, orderTags, stockTags } from '@motoparts/state';
import { saveAs } from '../../lib/download';
import { ADMIN_PAGE_SIZE, toListPage, type ListPage } from '../../lib/list-page';

/** Manage Order's filters, as the page's URL and the API's query both hold them. */
export interface OrderFilters {
  status?: OrderStatus;
  paid?: boolean;
  /** An order's id or a customer's email address. */
  q?: string;
}

/** One page of Manage Order: its number and the filters. */
export type AllOrdersArgs = OrderFilters & { page: number };

/** The filters as query parameters (those not set left out). */
const filterParams = ({ status, paid, q }: OrderFilters) => ({
  ...(status ? { status } : {}),
  ...(paid !== undefined ? { paid } : {}),
  ...(q ? { q } : {}),
});

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

    getAllOrders: build.query<ListPage<Order>, AllOrdersArgs>({
      query: ({ page, ...filters }) => ({
        url: '/orders',
        params: { page, limit: ADMIN_PAGE_SIZE, ...filterParams(filters) },
      }),
      transformResponse: (orders: Order[], meta) => toListPage(orders, meta),
      providesTags: (list) => [LIST_TAGS.allOrders, ...(list?.items.map((o) => orderTag(o._id)) ?? [])],
    }),
    /**
     * Ships (Pending → Shipped, with an optional carrier and tracking number), takes a shipment
     * back (→ Pending) or marks it delivered. The page's row takes the server's answer at once;
     * both order lists and the order are then refreshed (the customer's My Order included).
     */
    /** GET /export/orders.csv with Manage Order's filters, saved as orders.csv. */
    exportOrders: build.mutation<null, OrderFilters>({
      query: (filters) => ({
        url: '/export/orders.csv',
        params: filterParams(filters),
        responseHandler: saveAs('orders.csv'),
        cache: 'no-store',
      }),
    }),
    setShippingStatus: build.mutation<Order, ShippingStatusInput & { id: string; list: AllOrdersArgs }>({
      query: ({ id, status, carrier, trackingNumber }) => ({
        url: `/order/${encodeURIComponent(id)}/status`,
        method: 'PATCH',
        body: { status, ...(carrier ? { carrier } : {}), ...(trackingNumber ? { trackingNumber } : {}) },
      }),
      async onQueryStarted({ list }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: undefined }));
        if (data) dispatch(replaceListed(list, data));
      },
      // A refusal (409) refreshes too: the order changed meanwhile, and the row should say how.
      invalidatesTags: (_res, _err, { id }) => orderTags(id),
    }),
    /**
     * POST /order/:id/refund: the customer's Cancel and refund (the whole order, no amount) or an
     * admin's Refund (whole, or `amount` dollars). A whole refund before shipping puts the pieces
     * back on sale, so the part's stock is refreshed too.
     */
    refundOrder: build.mutation<Order, { id: string; partsId: string; amount?: number }>({
      query: ({ id, amount }) => ({
        url: `/order/${encodeURIComponent(id)}/refund`,
        method: 'POST',
        body: amount === undefined ? {} : { amount },
      }),
      invalidatesTags: (_res, _err, { id, partsId }) => [...orderTags(id), ...stockTags(partsId)],
    }),
  }),
});

export const {
  useGetMyOrdersQuery,
  useCancelOrderMutation,
  useGetAllOrdersQuery,
  useExportOrdersMutation,
  useSetShippingStatusMutation,
  useRefundOrderMutation,
} = ordersApi;

/** Puts the server's answer for one order in Manage Order's cached page, where that order is listed. */
function replaceListed(args: AllOrdersArgs, order: Order) {
  return ordersApi.util.updateQueryData('getAllOrders', args, (list) => {
    const i = list.items.findIndex((o) => o._id === order._id);
    if (i >= 0) list.items[i] = order;
  });
}
