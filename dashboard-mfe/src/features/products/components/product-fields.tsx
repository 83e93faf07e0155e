import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { CATEGORY_LABELS, MAX_PRICE_TIERS, MIN_ORDER_QTY, PART_CATEGORIES } from '@motoparts/contracts';
import { Field } from '../../../components/form-field';
import { PhotoUpload } from '../../../components/photo-upload';
import type { AddProductFormValues } from '../schema';

/** Add Product's values; Edit holds the same, its `availableQty` shown, not sent (schema.ts). */
export type ProductFormValues = AddProductFormValues;

type TextInput = Exclude<keyof ProductFormValues, 'category' | 'priceTiers'>;

const FIELDS: { name: TextInput; label: string; hint?: string; numeric?: boolean; multiline?: boolean }[] = [
  { name: 'name', label: 'Name' },
  { name: 'text', label: 'Description', multiline: true },
  { name: 'price', label: 'Price', hint: 'Unit price in US dollars, e.g. 12.50', numeric: true },
  { name: 'qty', label: 'Minimum order quantity', hint: `Usually ${MIN_ORDER_QTY}`, numeric: true },
  { name: 'availableQty', label: 'Available quantity', hint: 'Pieces in stock', numeric: true },
  { name: 'img', label: 'Photo URL', hint: 'https://… or /images/…, or upload a photo below' },
];

/**
 * The inputs of a product, as Add Product and Edit show them: the text fields, the category and
 * the volume prices. `withStock` adds Available quantity, which only a new product sets.
 */
export function ProductFields<Out>({
  form,
  idPrefix,
  withStock,
}: {
  form: UseFormReturn<ProductFormValues, unknown, Out>;
  idPrefix: string;
  withStock: boolean;
}) {
  const { register, formState, setValue, watch } = form;
  return (
    <>
      {FIELDS.filter((field) => withStock || field.name !== 'availableQty').map((field) => {
        const id = `${idPrefix}-${field.name}`;
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
      <PhotoUpload
        idPrefix={idPrefix}
        value={watch('img')}
        onUploaded={(url) => setValue('img', url, { shouldDirty: true, shouldValidate: true })}
      />
      <Field id={`${idPrefix}-category`} label="Category" error={formState.errors.category?.message}>
        {(describedBy) => (
          <select
            id={`${idPrefix}-category`}
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
      <PriceTiersEditor form={form} idPrefix={idPrefix} />
    </>
  );
}

/**
 * Up to MAX_PRICE_TIERS volume prices, each a row of two inputs with its own label and error, and
 * a button to remove it; the rules between rows are the contract's (schema.ts).
 */
function PriceTiersEditor<Out>({
  form,
  idPrefix,
}: {
  form: UseFormReturn<ProductFormValues, unknown, Out>;
  idPrefix: string;
}) {
  const { register, control, formState } = form;
  const { fields, append, remove } = useFieldArray({ control, name: 'priceTiers' });
  const errors = formState.errors.priceTiers;
  const hintId = `${idPrefix}-tiers-hint`;
  return (
    <fieldset className="dash-tiers" aria-describedby={hintId}>
      <legend>Volume prices</legend>
      <p className="dash-hint" id={hintId}>
        Optional, up to {MAX_PRICE_TIERS}: from a quantity above the minimum order, a lower price per piece.
        Each tier starts above the one before it and costs less.
      </p>
      {fields.map((row, i) => {
        const n = i + 1;
        const rowErrors = errors?.[i];
        return (
          <div key={row.id} className="dash-tier" role="group" aria-label={`Volume price ${n}`}>
            {(['fromQty', 'price'] as const).map((name) => {
              const id = `${idPrefix}-tier-${i}-${name}`;
              const error = rowErrors?.[name]?.message;
              return (
                <Field
                  key={name}
                  id={id}
                  label={name === 'fromQty' ? `Tier ${n} from quantity` : `Tier ${n} price`}
                  error={error}
                >
                  {(describedBy) => (
                    <input
                      id={id}
                      type="text"
                      inputMode={name === 'fromQty' ? 'numeric' : 'decimal'}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={describedBy}
                      {...register(`priceTiers.${i}.${name}`)}
                    />
                  )}
                </Field>
              );
            })}
            <button
              type="button"
              className="btn btn-outline"
              aria-label={`Remove volume price ${n}`}
              onClick={() => remove(i)}
            >
              Remove
            </button>
          </div>
        );
      })}
      {errors?.message && <p className="field-error">{errors.message}</p>}
      <button
        type="button"
        className="btn btn-secondary"
        disabled={fields.length >= MAX_PRICE_TIERS}
        onClick={() => append({ fromQty: '', price: '' })}
      >
        Add a volume price
      </button>
    </fieldset>
  );
}
