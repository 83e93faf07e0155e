import type { Review, ReviewInput } from '@motoparts/contracts';
import { baseApi, LIST_TAGS } from '@motoparts/state';
import { ADMIN_PAGE_SIZE, toListPage, type ListPage } from '../../lib/list-page';

/** Add Review and the admins' Reviews page; both refresh the storefront's testimonials. */
export const reviewsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    addReview: build.mutation<unknown, ReviewInput>({
      query: (body) => ({ url: '/review', method: 'POST', body }),
      invalidatesTags: [LIST_TAGS.reviews],
    }),
    getReviewsPage: build.query<ListPage<Review>, number>({
      query: (page) => ({ url: '/review', params: { page, limit: ADMIN_PAGE_SIZE } }),
      transformResponse: (reviews: Review[], meta) => toListPage(reviews, meta),
      providesTags: [LIST_TAGS.reviews],
    }),
    deleteReview: build.mutation<{ success: true }, string>({
      query: (id) => ({ url: `/review/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: [LIST_TAGS.reviews],
    }),
  }),
});

export const { useAddReviewMutation, useGetReviewsPageQuery, useDeleteReviewMutation } = reviewsApi;
