import type { DeletedPart, Part, PartEdit, PartInput } from '@motoparts/contracts';
import { baseApi, LIST_TAGS, stockTags } from '@motoparts/state';

/**
 * Add Product, Manage Products and Edit. The lists of parts are the shared kit's catalog reads
 * (`useGetPartsQuery`); these writes refresh them, the home page's grid included.
 */
export const productsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    addPart: build.mutation<{ success: true; part: Part }, PartInput>({
      query: (body) => ({ url: '/parts', method: 'POST', body }),
      invalidatesTags: [LIST_TAGS.parts],
    }),
    editPart: build.mutation<Part, { id: string; edit: PartEdit }>({
      query: ({ id, edit }) => ({ url: `/parts/${encodeURIComponent(id)}`, method: 'PUT', body: edit }),
      // Name, price and tiers show in the part's page and in every list of parts.
      invalidatesTags: (_res, _err, { id }) => stockTags(id),
    }),
    /** Removes the part, or archives it while open orders still need it (`archived`). */
    deletePart: build.mutation<DeletedPart, string>({
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

export const { useAddPartMutation, useEditPartMutation, useDeletePartMutation, useRestockPartMutation } =
  productsApi;
