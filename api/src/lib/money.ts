/** Dollars (at most two decimals, validated upstream) to integer cents. */
export function toCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Integer cents to dollars for the wire (e.g. 1250 → 12.5). */
export function toDollars(cents: number): number {
  return cents / 100;
}
