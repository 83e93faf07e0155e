import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import { DEFAULT_PART_CATEGORY, MESSAGES, MIN_ORDER_QTY, type PartInput } from '@motoparts/contracts';
import { errorMessage } from '@motoparts/state';
import { useAddPartMutation } from '../api';
import { ProductFields, type ProductFormValues } from '../components/product-fields';
import { addProductFormSchema } from '../schema';

const EMPTY: ProductFormValues = {
  name: '',
  text: '',
  price: '',
  qty: String(MIN_ORDER_QTY),
  availableQty: '',
  img: '',
  category: DEFAULT_PART_CATEGORY,
  priceTiers: [],
};

/** docs/product.md (admin): a new part; it shows on the home page as soon as it is saved. */
export default function AddProduct() {
  const [addPart, adding] = useAddPartMutation();
  const form = useForm<ProductFormValues, unknown, PartInput>({
    resolver: zodResolver(addProductFormSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = form.handleSubmit(async (part) => {
    try {
      await addPart(part).unwrap();
      toast.success(MESSAGES.productAdded);
      form.reset(EMPTY);
    } catch (err) {
      toast.error(errorMessage(err, 'The product could not be added. Please try again.'));
    }
  });

  return (
    <section aria-labelledby="add-product-title">
      <h1 id="add-product-title">Add Product</h1>
      <form className="card dash-form" onSubmit={onSubmit} noValidate aria-labelledby="add-product-title">
        <ProductFields form={form} idPrefix="product" withStock />
        <button type="submit" className="btn" disabled={adding.isLoading}>
          {adding.isLoading ? 'Adding...' : 'Add product'}
        </button>
      </form>
    </section>
  );
}
