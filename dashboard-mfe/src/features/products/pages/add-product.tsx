import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import {
  CATEGORY_LABELS,
  DEFAULT_PART_CATEGORY,
  MESSAGES,
  MIN_ORDER_QTY,
  PART_CATEGORIES,
  type PartInput,
} from '@motoparts/contracts';
import { errorMessage } from '@motoparts/state';
import { Field } from '../../../components/form-field';
import { useAddPartMutation } from '../api';
import { addProductFormSchema, type AddProductFormValues } from '../schema';

const EMPTY: AddProductFormValues = {
  name: '',
  text: '',
  price: '',
  qty: String(MIN_ORDER_QTY),
  availableQty: '',
  img: '',
  category: DEFAULT_PART_CATEGORY,
};

const FIELDS: {
  name: Exclude<keyof AddProductFormValues, 'category'>;
  label: string;
  hint?: string;
  numeric?: boolean;
  multiline?: boolean;
}[] = [
  { name: 'name', label: 'Name' },
  { name: 'text', label: 'Description', multiline: true },
  { name: 'price', label: 'Price', hint: 'Unit price in US dollars, e.g. 12.50', numeric: true },
  { name: 'qty', label: 'Minimum order quantity', hint: `Usually ${MIN_ORDER_QTY}`, numeric: true },
  { name: 'availableQty', label: 'Available quantity', hint: 'Pieces in stock', numeric: true },
  { name: 'img', label: 'Photo URL', hint: 'https://… or /images/…' },
];

/** docs/product.md (admin): a new part; it shows on the home page as soon as it is saved. */
export default function AddProduct() {
  const [addPart, adding] = useAddPartMutation();
  const { register, handleSubmit, reset, formState } = useForm<AddProductFormValues, unknown, PartInput>({
    resolver: zodResolver(addProductFormSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = handleSubmit(async (part) => {
    try {
      await addPart(part).unwrap();
      toast.success(MESSAGES.productAdded);
      reset(EMPTY);
    } catch (err) {
      toast.error(errorMessage(err, 'The product could not be added. Please try again.'));
    }
  });

  return (
    <section aria-labelledby="add-product-title">
      <h1 id="add-product-title">Add Product</h1>
      <form className="card dash-form" onSubmit={onSubmit} noValidate aria-labelledby="add-product-title">
        {FIELDS.map((field) => {
          const id = `product-${field.name}`;
          const error = formState.errors[field.name]?.message;
          return (
            <Field key={field.name} id={id} label={field.label} hint={field.hint} error={error}>
              {(describedBy) =>
                field.multiline ? (
                  <textarea
                    id={id}
                    rows={4}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={describedBy}
                    {...register(field.name)}
                  />
                ) : (
                  <input
                    id={id}
                    type="text"
                    inputMode={field.numeric ? 'decimal' : undefined}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={describedBy}
                    {...register(field.name)}
                  />
                )
              }
            </Field>
          );
        })}
        <Field id="product-category" label="Category" error={formState.errors.category?.message}>
          {(describedBy) => (
            <select
              id="product-category"
              aria-invalid={formState.errors.category ? true : undefined}
              aria-describedby={describedBy}
              {...register('category')}
            >
              {PART_CATEGORIES.map((c) => (
                <option key={c} value={c}>
                  {CATEGORY_LABELS[c]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" className="btn" disabled={adding.isLoading}>
          {adding.isLoading ? 'Adding...' : 'Add product'}
        </button>
      </form>
    </section>
  );
}
