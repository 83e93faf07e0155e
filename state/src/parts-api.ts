import type { Part, PartListQuery, Review } from '@motoparts/contracts';
import { baseApi } from './base-api';

export interface PartPage {
  parts: Part[];
  total: number;
}

/**
 * Catalog reads used by more than one remote (storefront grid, purchase page, dashboard
 * products), so they live in the shared kit; remote-specific endpoints are injected by remotes.
 */
export const catalogApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getParts: build.query<PartPage, Partial<PartListQuery> | void>({
      query: (params) => ({ url: '/parts', params: params ?? undefined }),
      transformResponse: (parts: Part[], meta) => ({
        parts,
        total: Number(meta?.response?.headers.get('x-total-count') ?? parts.length),
      }),
      providesTags: (page) => [
        { type: 'Part', id: 'LIST' },
        ...(page?.parts.map((p) => ({ type: 'Part' as const, id: p._id })) ?? []),
      ],
    }),
    getPart: build.query<Part, string>({
      query: (id) => `/parts/${encodeURIComponent(id)}`,
      providesTags: (_part, _err, id) => [{ type: 'Part', id }],
    }),
    getReviews: build.query<Review[], void>({
      query: () => '/review',
      providesTags: [{ type: 'Review', id: 'LIST' }],
    }),
  }),
});

export const { useGetPartsQuery, useGetPartQuery, useGetReviewsQuery } = catalogApi;
