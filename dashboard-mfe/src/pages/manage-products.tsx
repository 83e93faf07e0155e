import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { MESSAGES, type Part, type StockChange } from '@motoparts/contracts';
import { assetUrl, errorMessage } from '@motoparts/state';
import { useDeletePartMutation, useGetPartsQuery, useRestockPartMutation } from '../api/dashboard-api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { QueryTable } from '../components/query-table';
import { restockFormSchema, type RestockFormValues } from '../features/form-schemas';
import { formatPrice } from '../features/payment-state';

const PAGE_SIZE = 20;

/** One row's restock form: adds the entered pieces to the stock (the API does it atomically). */
function RestockForm({ part }: { part: Part }) {
  const [restock, restocking] = useRestockPartMutation();
  const { register, handleSubmit, reset, formState } = useForm<RestockFormValues, unknown, StockChange>({
    resolver: zodResolver(restockFormSchema),
    defaultValues: { quantity: '' },
  });
  const id = `restock-${part._id}`;
  const error = formState.errors.quantity?.message;

  const onSubmit = handleSubmit(async ({ quantity }) => {
    try {
      const updated = await restock({ id: part._id, quantity }).unwrap();
      toast.success(`${part.name}: stock is now ${updated.availableQty.toLocaleString('en-US')}`);
      reset({ quantity: '' });
    } catch (err) {
      toast.error(errorMessage(err, 'The stock could not be updated. Please try again.'));
    }
  });

  return (
    <form className="dash-restock" onSubmit={onSubmit} noValidate aria-label={`Restock ${part.name}`}>
      <label htmlFor={id} className="visually-hidden">
        Quantity to add to {part.name}
      </label>
      <input
        id={id}
        inputMode="numeric"
        placeholder="Quantity"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...register('quantity')}
      />
      <button type="submit" className="btn btn-secondary" disabled={restocking.isLoading}>
        {restocking.isLoading ? 'Adding...' : 'Restock'}
      </button>
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </form>
  );
}

/** docs/product.md (admin): every product with its stock; delete (confirmed) and restock. */
export default function ManageProducts() {
  const [page, setPage] = useState(1);
  const parts = useGetPartsQuery({ page, limit: PAGE_SIZE, sort: 'name' });
  const [deletePart, deleting] = useDeletePartMutation();
  const [toDelete, setToDelete] = useState<Part | null>(null);
  const total = parts.currentData?.total ?? 0;

  async function confirmDelete() {
    if (!toDelete) return;
    try {
      await deletePart(toDelete._id).unwrap();
      toast.success(`${toDelete.name} deleted`);
      // Deleting the last row of the last page would leave an empty page behind.
      if (parts.currentData?.parts.length === 1 && page > 1) setPage(page - 1);
    } catch (err) {
      toast.error(errorMessage(err, 'The product could not be deleted. Please try again.'));
    }
    setToDelete(null);
  }

  return (
    <section aria-labelledby="manage-products-title">
      <h1 id="manage-products-title">Manage Products</h1>
      <QueryTable
        query={parts}
        rows={parts.currentData?.parts}
        what="products"
        empty="No products yet."
        label="Products table"
        columns={['Photo', 'Name', 'Price', 'Minimum order', 'In stock', 'Restock', 'Delete']}
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
            <td>{part.qty.toLocaleString('en-US')}</td>
            <td data-testid="stock">{part.availableQty.toLocaleString('en-US')}</td>
            <td>
              <RestockForm part={part} />
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
