import type {
  Order,
  OrderPaymentResult,
  Part,
  PartInput,
  PaymentIntent,
  ProfileUpdate,
  Review,
  ReviewInput,
  ShippingStatus,
  User,
  MakeAdminResult,
} from '@motoparts/contracts';
import { baseApi, catalogApi, LIST_TAGS, orderTag, orderTags, profileTag, stockTags } from '@motoparts/state';

/** A customer's own orders are few; one page of the API's maximum size covers them. */
const LIST_LIMIT = 100;
/** Admin lists (every order, every user) grow without bound, so they are paged. */
export const ADMIN_PAGE_SIZE = 25;

/** One page of a list plus the total the API reports in X-Total-Count. */
export interface ListPage<T> {
  items: T[];
  total: number;
}

function toListPage<T>(items: T[], meta: { response?: Response } | undefined): ListPage<T> {
  return { items, total: Number(meta?.response?.headers.get('x-total-count') ?? items.length) };
}

/**
 * Every call the dashboard makes, injected into the one shared `baseApi` so the cache, the bearer
 * token and the 401 handling are the shell's. Tags keep the screens in step: cancelling an order
 * also refreshes the stock (Part), adding a product refreshes the home page's grid.
 */
export const dashboardApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<User, string>({
      query: (email) => `/user/${encodeURIComponent(email)}`,
      providesTags: (_user, _err, email) => [profileTag(email)],
    }),
    updateProfile: build.mutation<{ success: true; user: User }, { email: string; fields: ProfileUpdate }>({
      query: ({ email, fields }) => ({
        url: `/userInfo/${encodeURIComponent(email)}`,
        method: 'PUT',
        body: fields,
      }),
      invalidatesTags: (_res, _err, { email }) => [profileTag(email)],
    }),

    getMyOrders: build.query<Order[], string>({
      query: (email) => ({ url: '/order', params: { user: email, limit: LIST_LIMIT } }),
      // docs/product.md: on My Order a 401 *or* 403 signs the user out and clears the token.
      extraOptions: { signOutOnForbidden: true },
      providesTags: (orders) => [LIST_TAGS.myOrders, ...(orders?.map((o) => orderTag(o._id)) ?? [])],
    }),
    getOrder: build.query<Order, string>({
      query: (id) => `/order/${encodeURIComponent(id)}`,
      providesTags: (_order, _err, id) => [orderTag(id)],
    }),
    cancelOrder: build.mutation<{ success: true }, { id: string; partsId: string }>({
      query: ({ id }) => ({ url: `/order/${encodeURIComponent(id)}`, method: 'DELETE' }),
      // The server puts the reserved pieces back in stock, so the part's numbers change too.
      invalidatesTags: (_res, _err, { id, partsId }) => [...orderTags(id), ...stockTags(partsId)],
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
      invalidatesTags: (_res, _err, { id }) => orderTags(id),
    }),

    addReview: build.mutation<unknown, ReviewInput>({
      query: (body) => ({ url: '/review', method: 'POST', body }),
      invalidatesTags: [LIST_TAGS.reviews],
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
          dashboardApi.util.updateQueryData('getAllOrders', page, (list) => {
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

    getReviewsPage: build.query<ListPage<Review>, number>({
      query: (page) => ({ url: '/review', params: { page, limit: ADMIN_PAGE_SIZE } }),
      transformResponse: (reviews: Review[], meta) => toListPage(reviews, meta),
      providesTags: [{ type: 'Review', id: 'LIST' }],
    }),
    deleteReview: build.mutation<{ success: true }, string>({
      query: (id) => ({ url: `/review/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Review', id: 'LIST' }],
    }),

    getUsers: build.query<ListPage<User>, number>({
      query: (page) => ({ url: '/user', params: { page, limit: ADMIN_PAGE_SIZE } }),
      transformResponse: (users: User[], meta) => toListPage(users, meta),
      providesTags: [LIST_TAGS.users],
    }),
    makeAdmin: build.mutation<MakeAdminResult, string>({
      query: (email) => ({ url: `/user/admin/${encodeURIComponent(email)}`, method: 'PUT' }),
      invalidatesTags: (res) => (res && res.modifiedCount > 0 ? [LIST_TAGS.users] : []),
    }),

    addPart: build.mutation<{ success: true; part: Part }, PartInput>({
      query: (body) => ({ url: '/parts', method: 'POST', body }),
      invalidatesTags: [LIST_TAGS.parts],
    }),
    deletePart: build.mutation<{ success: true }, string>({
      query: (id) => ({ url: `/parts/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: (_res, _err, id) => stockTags(id),
    }),
    restockPart: build.mutation<Part, { id: string; quantity: number }>({
      query: ({ id, quantity }) => ({
        url: `/restockQty/${encodeURIComponent(id)}`,
        method: 'PUT',
        body: { quantity },
      }),
      invalidatesTags: (_res, _err, { id }) => stockTags(id),
    }),
  }),
});

export const {
  useGetProfileQuery,
  useUpdateProfileMutation,
  useGetMyOrdersQuery,
  useGetOrderQuery,
  useCancelOrderMutation,
  useCreatePaymentIntentQuery,
  useClaimPaymentMutation,
  useAddReviewMutation,
  useGetAllOrdersQuery,
  useSetShippingStatusMutation,
  useGetReviewsPageQuery,
  useDeleteReviewMutation,
  useGetUsersQuery,
  useMakeAdminMutation,
  useAddPartMutation,
  useDeletePartMutation,
  useRestockPartMutation,
} = dashboardApi;

/** Re-exported so pages import the catalog reads from one place. */
export const { useGetPartsQuery } = catalogApi;

/** HTTP status of an RTK Query error, when there is one. */
export function errorStatus(error: unknown): number | undefined {
  if (error && typeof error === 'object' && 'status' in error) {
    const status = (error as { status: unknown }).status;
    if (typeof status === 'number') return status;
  }
  return undefined;
}
