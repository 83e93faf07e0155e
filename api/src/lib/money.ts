import { dollarsToCents } from '@motoparts/contracts';

/** Dollars (at most two decimals, validated upstream) to integer cents: the contracts' one rounding. */
export const toCents = dollarsToCents;

/** Integer cents to dollars for the wire (e.g. 1250 → 12.5). */
export function toDollars(cents: number): number {
  return cents / 100;
}
