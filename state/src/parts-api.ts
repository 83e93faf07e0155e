import type { Part, PartFacets, PartListQuery, Review } from '@motoparts/contracts';
import { baseApi } from './base-api';
import { LIST_TAGS, partTag } from './cache-tags';

export interface PartPage {
  parts: Part[];
  total: number;
  /** The search's counts per filter choice, when asked for (`facets: true`). */
  facets?: PartFacets;
}

/** The X-Facets header's counts; a missing or unreadable header is none. */
function facetsOf(header: string | null | undefined): PartFacets | undefined {
  if (!header) return undefined;
  try {
    return JSON.parse(header) as PartFacets;
  } catch {
    return undefined;
  }
}

/**
 * Catalog reads used by more than one remote (storefront grid, purchase page, dashboard
 * products), so they live in the shared kit; remote-specific endpoints are injected by remotes.
 */
export const catalogApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getParts: build.query<PartPage, Partial<PartListQuery> | void>({
      query: (params) => ({ url: '/parts', params: params ?? undefined }),
      transformResponse: (parts: Part[], meta) => {
        const facets = facetsOf(meta?.response?.headers.get('x-facets'));
        return {
          parts,
          total: Number(meta?.response?.headers.get('x-total-count') ?? parts.length),
          ...(facets ? { facets } : {}),
        };
      },
      providesTags: (page) => [LIST_TAGS.parts, ...(page?.parts.map((p) => partTag(p._id)) ?? [])],
    }),
    getPart: build.query<Part, string>({
      query: (id) => `/parts/${encodeURIComponent(id)}`,
      providesTags: (_part, _err, id) => [partTag(id)],
    }),
    getReviews: build.query<Review[], void>({
      query: () => '/review',
      providesTags: [LIST_TAGS.reviews],
    }),
  }),
});

export const { useGetPartsQuery, useGetPartQuery, useGetReviewsQuery } = catalogApi;
