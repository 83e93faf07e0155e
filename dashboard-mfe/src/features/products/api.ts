import type { DeletedPart, Part, PartEdit, PartImportReport, PartInput } from '@motoparts/contracts';
import { baseApi, LIST_TAGS, stockTags } from '@motoparts/state';
import { saveAs } from '../../lib/download';

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
    /** POST /import/parts: a dry run reports only; applying refreshes every list of parts. */
    importParts: build.mutation<PartImportReport, { file: Blob; dryRun: boolean }>({
      query: ({ file, dryRun }) => ({
        url: '/import/parts',
        method: 'POST',
        params: { dryRun },
        headers: { 'content-type': 'text/csv' },
        body: file,
      }),
      invalidatesTags: (_res, _err, { dryRun }) => (dryRun ? [] : [LIST_TAGS.parts]),
    }),
    /** GET /export/parts.csv, saved as parts.csv. */
    exportParts: build.mutation<null, void>({
      query: () => ({ url: '/export/parts.csv', responseHandler: saveAs('parts.csv'), cache: 'no-store' }),
    }),
  }),
});

export const {
  useAddPartMutation,
  useEditPartMutation,
  useDeletePartMutation,
  useRestockPartMutation,
  useImportPartsMutation,
  useExportPartsMutation,
} = productsApi;
