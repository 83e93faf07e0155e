import { useState } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'react-toastify';
import { MESSAGES, type Part } from '@motoparts/contracts';
import { assetUrl, errorMessage, formatCount, formatPrice, useGetPartsQuery } from '@motoparts/state';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { QueryTable } from '../../../components/query-table';
import { useDeletePartMutation, useExportPartsMutation } from '../api';
import { ImportDialog } from '../components/import-dialog';
import { RestockForm } from '../components/restock-form';

const PAGE_SIZE = 20;

/**
 * docs/product.md (admin): every product with its stock; edit, restock and delete (confirmed);
 * import a CSV file (checked first, then applied) and export the catalogue as one.
 */
export default function ManageProducts() {
  const [page, setPage] = useState(1);
  const parts = useGetPartsQuery({ page, limit: PAGE_SIZE, sort: 'name' });
  const [deletePart, deleting] = useDeletePartMutation();
  const [toDelete, setToDelete] = useState<Part | null>(null);
  const [importing, setImporting] = useState(false);
  const [exportParts, exporting] = useExportPartsMutation();
  const total = parts.currentData?.total ?? 0;

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      const { archived } = await deletePart(toDelete._id).unwrap();
      toast.success(
        archived
          ? `${toDelete.name} archived: open orders still need it, so it is kept for them and hidden from the shop`
          : `${toDelete.name} deleted`,
      );
      // Deleting the last row of the last page would leave an empty page behind.
      if (parts.currentData?.parts.length === 1 && page > 1) setPage(page - 1);
    } catch (err) {
      toast.error(errorMessage(err, 'The product could not be deleted. Please try again.'));
    }
    setToDelete(null);
  }

  async function exportAll() {
    try {
      await exportParts().unwrap();
    } catch (err) {
      toast.error(errorMessage(err, 'The products could not be exported. Please try again.'));
    }
  }

  return (
    <section aria-labelledby="manage-products-title">
      <h1 id="manage-products-title">Manage Products</h1>
      <div className="dash-actions dash-toolbar">
        <button type="button" className="btn btn-outline" onClick={() => setImporting(true)}>
          Import
        </button>
        <button
          type="button"
          className="btn btn-outline"
          onClick={() => void exportAll()}
          disabled={exporting.isLoading}
        >
          {exporting.isLoading ? 'Exporting...' : 'Export'}
        </button>
      </div>
      <QueryTable
        query={parts}
        rows={parts.currentData?.parts}
        what="products"
        empty="No products yet."
        label="Products table"
        columns={['Photo', 'Name', 'Price', 'Minimum order', 'In stock', 'Restock', 'Edit', 'Delete']}
        renderRow={(part) => (
          <tr key={part._id} data-part-id={part._id}>
            <td>
              <img
                className="dash-thumb"
                src={assetUrl(part.img)}
                alt=""
                width={48}
                height={48}
                loading="lazy"
              />
            </td>
            <th scope="row">{part.name}</th>
            <td>{formatPrice(part.price)}</td>
            <td>{formatCount(part.qty)}</td>
            <td data-testid="stock">{formatCount(part.availableQty)}</td>
            <td>
              <RestockForm part={part} />
            </td>
            <td>
              <Link
                className="btn btn-outline"
                to={`/dashboard/editProduct/${part._id}`}
                aria-label={`Edit ${part.name}`}
              >
                Edit
              </Link>
            </td>
            <td>
              <button
                type="button"
                className="btn btn-outline"
                aria-label={`Delete ${part.name}`}
                onClick={() => setToDelete(part)}
              >
                Delete
              </button>
            </td>
          </tr>
        )}
        pager={{ page, total, pageSize: PAGE_SIZE, label: 'Product pages', onPage: setPage }}
      />
      {importing && <ImportDialog onClose={() => setImporting(false)} />}
      {toDelete && (
        <ConfirmDialog
          title="Delete this product?"
          confirmLabel="Yes, delete"
          busy={deleting.isLoading}
          onConfirm={() => void confirmDelete()}
          onCancel={() => setToDelete(null)}
        >
          <p>{MESSAGES.confirmDelete}</p>
          <p className="dash-muted">{toDelete.name}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
