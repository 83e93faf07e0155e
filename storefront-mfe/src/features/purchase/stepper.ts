import { MESSAGES } from '@motoparts/contracts/messages';

/** The bounds of the purchase stepper (docs/product.md): the part's minimum and the stock on hand. */
export interface StepperBounds {
  min: number;
  stock: number;
}

export interface StepResult {
  qty: number;
  /** Why the step was refused; null when it was applied. */
  message: string | null;
}

/** docs/product.md's text names 100; a part with another minimum gets the same sentence with its own. */
export function minimumMessage(min: number): string {
  return min === 100 ? MESSAGES.minimumQty : `Minimum purchase quantity is ${min}`;
}

export const STOCK_MESSAGE = MESSAGES.stockReached;

/** Decrease by one unless the result would fall below the minimum. */
export function decrease(qty: number, { min }: StepperBounds): StepResult {
  const next = qty - 1;
  if (next < min) return { qty, message: minimumMessage(min) };
  return { qty: next, message: null };
}

/** Increase by one unless the result would exceed the available stock. */
export function increase(qty: number, { stock }: StepperBounds): StepResult {
  const next = qty + 1;
  if (next > stock) return { qty, message: STOCK_MESSAGE };
  return { qty: next, message: null };
}

/** Order now is allowed only for a quantity within the bounds (stock can shrink meanwhile). */
export function canOrder(qty: number, { min, stock }: StepperBounds): boolean {
  return Number.isInteger(qty) && qty >= min && qty <= stock;
}

/**
 * Where the stepper starts: the part's minimum (docs/product.md). It never starts above the stock, even
 * when the stock is below the minimum; then Order now stays disabled.
 */
export function initialQty({ min }: StepperBounds): number {
  return min;
}

/** Keeps a quantity chosen earlier inside new bounds (after the stock shown was refreshed). */
export function clampQty(qty: number, { min, stock }: StepperBounds): number {
  return Math.max(min, Math.min(qty, Math.max(stock, min)));
}
