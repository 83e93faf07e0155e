import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { toast } from 'react-toastify';
import type { Part, StockChange } from '@motoparts/contracts';
import { errorMessage, formatCount } from '@motoparts/state';
import { useRestockPartMutation } from '../api';
import { restockFormSchema, type RestockFormValues } from '../schema';

/**
 * One row's restock form: adds the entered pieces to the stock (the API does it atomically). Used
 * by Manage Products and the Overview (which reloads its figures on `onRestocked`).
 */
export function RestockForm({
  part,
  onRestocked,
}: {
  part: Pick<Part, '_id' | 'name'>;
  onRestocked?: () => void;
}) {
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
      toast.success(`${part.name}: stock is now ${formatCount(updated.availableQty)}`);
      reset({ quantity: '' });
      onRestocked?.();
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
