import { formatCount, formatPrice } from '@motoparts/state/frame';

/** A volume price: from this many pieces of a line, each costs `price` dollars. */
export interface PriceTier {
  fromQty: number;
  price: number;
}

const isTier = (t: unknown): t is PriceTier =>
  typeof t === 'object' &&
  t !== null &&
  Number.isFinite((t as PriceTier).fromQty) &&
  Number.isFinite((t as PriceTier).price);

/**
 * A part's volume prices (`priceTiers` on GET /parts/:id), read without trusting that the field
 * is there: a part without tiers, or an API from before them, has none and the cart shows no hint.
 */
export function tiersOf(part: unknown): PriceTier[] {
  const tiers = (part as { priceTiers?: unknown } | null | undefined)?.priceTiers;
  return Array.isArray(tiers) ? tiers.filter(isTier) : [];
}

/**
 * The volume price a line can still reach: of the tiers above its quantity that the stock allows
 * and that cost less a piece than the line pays now, the nearest. Null when there is none.
 */
export function nextTier(
  tiers: readonly PriceTier[],
  line: { qty: number; availableQty: number; unitPrice: number },
): PriceTier | null {
  let next: PriceTier | null = null;
  for (const tier of tiers) {
    const reachable = tier.fromQty > line.qty && tier.fromQty <= line.availableQty;
    if (reachable && tier.price < line.unitPrice && (!next || tier.fromQty < next.fromQty)) next = tier;
  }
  return next;
}

/** The hint's words: "order 1,000 for $4.00 each". */
export const tierHint = (tier: PriceTier): string =>
  `order ${formatCount(tier.fromQty)} for ${formatPrice(tier.price)} each`;
