import { MESSAGES, MIN_ORDER_QTY } from '@motoparts/contracts/messages';

/**
 * The bounds of a quantity stepper (docs/product.md: the purchase page's, and each line of the cart):
 * the part's minimum and the stock on hand.
 */
export interface StepperBounds {
  min: number;
  stock: number;
}

export interface StepResult {
  qty: number;
  /** Why the step was refused; null when it was applied. */
  message: string | null;
}

/** docs/product.md's text names the usual minimum (100); another minimum gets the same sentence with its own. */
export function minimumMessage(min: number): string {
  return min === MIN_ORDER_QTY ? MESSAGES.minimumQty : `Minimum purchase quantity is ${min}`;
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
 * Where the stepper starts: the part's minimum (docs/product.md), even when the stock is below
 * it; then Order now stays disabled and Increase says the stock is reached.
 */
export function initialQty({ min }: StepperBounds): number {
  return min;
}
