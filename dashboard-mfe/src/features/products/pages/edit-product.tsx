import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { toast } from 'react-toastify';
import type { Part, PartEdit } from '@motoparts/contracts';
import { errorMessage, errorStatus, formatCount, useGetPartQuery } from '@motoparts/state';
import { LoadError, Loading } from '../../../components/status';
import { useEditPartMutation } from '../api';
import { ProductFields, type ProductFormValues } from '../components/product-fields';
import { editProductFormSchema } from '../schema';

/** The part as the form's text inputs show it. */
function valuesOf(part: Part): ProductFormValues {
  return {
    name: part.name,
    text: part.text,
    price: String(part.price),
    qty: String(part.qty),
    // Not an input here: the edit never changes the stock (its schema drops this).
    availableQty: String(part.availableQty),
    img: part.img,
    category: part.category,
    priceTiers: (part.priceTiers ?? []).map((t) => ({ fromQty: String(t.fromQty), price: String(t.price) })),
  };
}

function EditProductForm({ part }: { part: Part }) {
  const navigate = useNavigate();
  const [editPart, saving] = useEditPartMutation();
  const form = useForm<ProductFormValues, unknown, PartEdit>({
    resolver: zodResolver(editProductFormSchema),
    defaultValues: valuesOf(part),
  });

  const onSubmit = form.handleSubmit(async (edit) => {
    try {
      const saved = await editPart({ id: part._id, edit }).unwrap();
      toast.success(`${saved.name} saved`);
      void navigate('/dashboard/manageProduct');
    } catch (err) {
      toast.error(errorMessage(err, 'The product could not be saved. Please try again.'));
    }
  });

  return (
    <form className="card dash-form" onSubmit={onSubmit} noValidate aria-labelledby="edit-product-title">
      <p className="dash-muted" data-testid="edit-stock">
        In stock: {formatCount(part.availableQty)} pcs. The stock changes only through Restock and orders.
      </p>
      <ProductFields form={form} idPrefix="edit" withStock={false} />
      <div className="dash-actions">
        <button type="submit" className="btn" disabled={saving.isLoading}>
          {saving.isLoading ? 'Saving...' : 'Save changes'}
        </button>
        <Link className="btn btn-outline" to="/dashboard/manageProduct">
          Cancel
        </Link>
      </div>
    </form>
  );
}

/**
 * Admins, from Manage Products' Edit: one part's name, description, price, minimum order, photo,
 * category and volume prices, filled in from the part (docs/product.md#manage-products).
 */
export default function EditProduct() {
  const { id = '' } = useParams();
  const part = useGetPartQuery(id, { skip: !id });
  const missing = [400, 404].includes(errorStatus(part.error) ?? 0);
  return (
    <section aria-labelledby="edit-product-title">
      <h1 id="edit-product-title">Edit product{part.data ? `: ${part.data.name}` : ''}</h1>
      {part.isLoading && <Loading what="the product" />}
      {part.isError &&
        (missing ? (
          <div className="dash-alert" role="alert">
            <p>This product does not exist or was deleted.</p>
            <Link to="/dashboard/manageProduct">Back to Manage Products</Link>
          </div>
        ) : (
          <LoadError error={part.error} what="the product" onRetry={() => void part.refetch()} />
        ))}
      {part.data && <EditProductForm key={part.data._id} part={part.data} />}
    </section>
  );
}
