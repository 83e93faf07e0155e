import { formatCount } from '@motoparts/state';
import { oneOf } from '../catalogue-state';

/**
 * One of the catalogue's drop-downs (category, price, sort): "all" or one of `options`, each with
 * how many parts it would list when `counts` are given (the search's facets). An unknown value
 * reads as "all", like a hand-edited link does.
 */
export function ChoiceSelect<T extends string>({
  id,
  label,
  allLabel,
  options,
  labels,
  counts,
  value,
  onChange,
}: {
  id: string;
  label: string;
  /** The first option, which chooses none of `options`. */
  allLabel: string;
  options: readonly T[];
  labels: Record<T, string>;
  counts?: Partial<Record<T, number>> | undefined;
  value: T | undefined;
  onChange: (value: T | undefined) => void;
}) {
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value ?? ''} onChange={(e) => onChange(oneOf(options, e.target.value))}>
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
            {counts?.[option] !== undefined ? ` (${formatCount(counts[option])})` : ''}
          </option>
        ))}
      </select>
    </div>
  );
}
