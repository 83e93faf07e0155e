/**
 * Volume prices: the one rule that prices a quantity of a part, for the API (orders, the cart)
 * and the front ends (cards, the purchase page, the cart) alike, so what is shown is what is
 * charged. Free of zod, so that light pages can import it alone.
 */

/** At most this many volume price tiers per part. */
export const MAX_PRICE_TIERS = 5;

/** A volume price as the API answers it: from `fromQty` pieces a line, `price` dollars a piece. */
export interface PriceTier {
  fromQty: number;
  price: number;
}

/** The same tier as the API stores it, in integer cents. */
export interface PriceTierCents {
  fromQty: number;
  priceCents: number;
}

/** What a price is computed from: a part as the API answers it (dollars) or as it stores it (cents). */
export type PricedPart =
  | { price: number; priceTiers?: readonly PriceTier[] | null }
  | { priceCents: number; priceTiers?: readonly PriceTierCents[] | null };

/**
 * Dollars (at most two decimals) to integer cents. Rounding absorbs the binary fractions of a
 * decimal price (4.35 × 100 is 434.99999999999994).
 */
export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);

const centsOf = (priced: { price: number } | { priceCents: number }): number =>
  'priceCents' in priced ? priced.priceCents : dollarsToCents(priced.price);

/**
 * The highest tier `qty` pieces reach: the one with the largest `fromQty` not above `qty`, if
 * any. Tiers are stored in ascending order, but the rule does not depend on it.
 */
export function tierReached<T extends { fromQty: number }>(
  tiers: readonly T[] | null | undefined,
  qty: number,
): T | undefined {
  let reached: T | undefined;
  for (const tier of tiers ?? []) {
    if (tier.fromQty <= qty && (!reached || tier.fromQty > reached.fromQty)) reached = tier;
  }
  return reached;
}

/**
 * The unit price in cents of `qty` pieces of `part`: the price of the highest tier the quantity
 * reaches, else the part's own price.
 */
export function unitPriceCentsOf(part: PricedPart, qty: number): number {
  const tiers: readonly (PriceTier | PriceTierCents)[] | null | undefined = part.priceTiers;
  return centsOf(tierReached(tiers, qty) ?? part);
}

/** Where a tier list breaks the rules, as a path below `priceTiers` and what is wrong there. */
export interface PriceTierProblem {
  path: [number, 'fromQty' | 'price'];
  message: string;
}

/**
 * The rules a part's tiers keep with each other and with the part: each tier starts above the
 * minimum order (`qty`) and above the tier before it, and costs less than the part's price and
 * than the tier before it. Prices are compared in cents.
 */
export function priceTierProblems(part: {
  price: number;
  qty: number;
  priceTiers?: readonly PriceTier[] | null;
}): PriceTierProblem[] {
  const problems: PriceTierProblem[] = [];
  let fromQty = part.qty;
  let cents = dollarsToCents(part.price);
  (part.priceTiers ?? []).forEach((tier, i) => {
    if (tier.fromQty <= fromQty) {
      problems.push({
        path: [i, 'fromQty'],
        message:
          i === 0
            ? `must be above the minimum order quantity (${part.qty})`
            : `must be above the previous tier's quantity (${fromQty})`,
      });
    }
    const tierCents = dollarsToCents(tier.price);
    if (tierCents >= cents) {
      problems.push({
        path: [i, 'price'],
        message: i === 0 ? "must be below the part's price" : "must be below the previous tier's price",
      });
    }
    fromQty = tier.fromQty;
    cents = tierCents;
  });
  return problems;
}
