import { nextTier, tierHint, tiersOf } from '../tiers';

const tiers = [
  { fromQty: 1000, price: 4 },
  { fromQty: 500, price: 4.5 },
];

describe('tier hints', () => {
  it('reads no tiers from a part without the field, or with something else in it', () => {
    expect(tiersOf({ _id: 'p', price: 5 })).toEqual([]);
    expect(tiersOf(undefined)).toEqual([]);
    expect(tiersOf({ priceTiers: null })).toEqual([]);
    expect(tiersOf({ priceTiers: [{ fromQty: '500', price: 4 }, tiers[0]] })).toEqual([tiers[0]]);
  });

  it('offers the nearest cheaper tier above the quantity that the stock allows', () => {
    expect(nextTier(tiers, { qty: 100, availableQty: 5000, unitPrice: 5 })).toEqual({
      fromQty: 500,
      price: 4.5,
    });
    expect(nextTier(tiers, { qty: 500, availableQty: 5000, unitPrice: 4.5 })).toEqual({
      fromQty: 1000,
      price: 4,
    });
    // Past the last tier, or with too little stock to reach the next one: nothing to offer.
    expect(nextTier(tiers, { qty: 1000, availableQty: 5000, unitPrice: 4 })).toBeNull();
    expect(nextTier(tiers, { qty: 100, availableQty: 400, unitPrice: 5 })).toBeNull();
    expect(nextTier(tiers, { qty: 600, availableQty: 999, unitPrice: 4.5 })).toBeNull();
    expect(nextTier([], { qty: 100, availableQty: 5000, unitPrice: 5 })).toBeNull();
  });

  it('says it as the issue does', () => {
    expect(tierHint({ fromQty: 1000, price: 4 })).toBe('order 1,000 for $4.00 each');
  });
});
