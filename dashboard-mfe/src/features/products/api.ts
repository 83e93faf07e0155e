import type { Part, PartInput } from '@motoparts/contracts';
import { baseApi, LIST_TAGS, stockTags } from '@motoparts/state';

/**
 * Add Product and Manage Products. The lists of parts are the shared kit's catalog reads
 * (`useGetPartsQuery`); these writes refresh them, the home page's grid included.
 */
export const productsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
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

export const { useAddPartMutation, useDeletePartMutation, useRestockPartMutation } = productsApi;
