import { decrease, increase, type StepperBounds, type StepResult } from '../lib/stepper';

/**
 * The quantity stepper of the purchase page and of each cart line (docs/product.md): Decrease, the
 * quantity (announced as it changes) and Increase, and under them why a step was refused. The
 * group is named by `labelledBy` (a visible label) or else by `label`.
 */
export function QuantityStepper({
  qty,
  bounds,
  message,
  onStep,
  label,
  labelledBy,
}: {
  qty: number;
  bounds: StepperBounds;
  /** Why the last step was refused, or another message for the quantity; null for none. */
  message: string | null;
  onStep: (result: StepResult) => void;
  label?: string;
  labelledBy?: string;
}) {
  return (
    <>
      <div
        className="stepper"
        role="group"
        aria-label={labelledBy ? undefined : label}
        aria-labelledby={labelledBy}
      >
        <button type="button" className="btn btn-outline" onClick={() => onStep(decrease(qty, bounds))}>
          Decrease
        </button>
        <output aria-live="polite" aria-label="Quantity" data-testid="quantity">
          {qty}
        </output>
        <button type="button" className="btn btn-outline" onClick={() => onStep(increase(qty, bounds))}>
          Increase
        </button>
      </div>
      <p className="field-error stepper-message" role="alert" data-testid="stepper-message">
        {message}
      </p>
    </>
  );
}
