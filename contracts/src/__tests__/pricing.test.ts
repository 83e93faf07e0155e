import { partEditSchema, partInputSchema, STOCK_NOT_EDITABLE } from '../index';
import {
  dollarsToCents,
  MAX_PRICE_TIERS,
  priceTierProblems,
  tierReached,
  unitPriceCentsOf,
} from '../pricing';

const tiered = {
  price: 5,
  qty: 100,
  priceTiers: [
    { fromQty: 500, price: 4.5 },
    { fromQty: 1000, price: 4 },
  ],
};

describe('unitPriceCentsOf', () => {
  it.each([
    [100, 500],
    [499, 500],
    [500, 450],
    [501, 450],
    [999, 450],
    [1000, 400],
    [1001, 400],
    [10_000_000, 400],
  ])('prices %i pieces at %i cents (the highest tier reached, else the part)', (qty, cents) => {
    expect(unitPriceCentsOf(tiered, qty)).toBe(cents);
  });

  it('reads the stored shape (cents) the same way as the answered shape (dollars)', () => {
    const stored = {
      priceCents: 500,
      priceTiers: tiered.priceTiers.map((t) => ({ fromQty: t.fromQty, priceCents: dollarsToCents(t.price) })),
    };
    for (const qty of [100, 499, 500, 999, 1000, 5000]) {
      expect(unitPriceCentsOf(stored, qty)).toBe(unitPriceCentsOf(tiered, qty));
    }
  });

  it("is the part's price without tiers, with none, or with null", () => {
    expect(unitPriceCentsOf({ price: 12.5 }, 100_000)).toBe(1250);
    expect(unitPriceCentsOf({ price: 12.5, priceTiers: [] }, 100_000)).toBe(1250);
    expect(unitPriceCentsOf({ priceCents: 1250, priceTiers: null }, 100_000)).toBe(1250);
  });

  it('takes the largest fromQty reached whatever the order the tiers come in', () => {
    const shuffled = { price: 5, priceTiers: [...tiered.priceTiers].reverse() };
    expect(unitPriceCentsOf(shuffled, 750)).toBe(450);
    expect(unitPriceCentsOf(shuffled, 1200)).toBe(400);
  });

  it('gives whole cents for prices whose binary form is not exact', () => {
    expect(dollarsToCents(4.35)).toBe(435);
    expect(unitPriceCentsOf({ price: 19.99, priceTiers: [{ fromQty: 200, price: 0.29 }] }, 200)).toBe(29);
  });
});

describe('tierReached', () => {
  it('is the tier of the largest fromQty reached, or none below the first', () => {
    expect(tierReached(tiered.priceTiers, 499)).toBeUndefined();
    expect(tierReached(tiered.priceTiers, 500)).toBe(tiered.priceTiers[0]);
    expect(tierReached(tiered.priceTiers, 1000)).toBe(tiered.priceTiers[1]);
    expect(tierReached(undefined, 1000)).toBeUndefined();
  });
});

describe('priceTierProblems', () => {
  it('finds none in ascending quantities above the minimum with falling prices below the price', () => {
    expect(priceTierProblems(tiered)).toEqual([]);
    expect(priceTierProblems({ price: 5, qty: 100 })).toEqual([]);
  });

  it.each([
    ['a first tier at the minimum', [{ fromQty: 100, price: 4 }], [[0, 'fromQty']]],
    ['a first tier below the minimum', [{ fromQty: 50, price: 4 }], [[0, 'fromQty']]],
    ['a first tier at the price', [{ fromQty: 200, price: 5 }], [[0, 'price']]],
    ['a first tier above the price', [{ fromQty: 200, price: 5.01 }], [[0, 'price']]],
    [
      'quantities not strictly ascending',
      [
        { fromQty: 200, price: 4 },
        { fromQty: 200, price: 3 },
      ],
      [[1, 'fromQty']],
    ],
    [
      'prices not strictly falling',
      [
        { fromQty: 200, price: 4 },
        { fromQty: 300, price: 4 },
      ],
      [[1, 'price']],
    ],
  ])('names %s', (_case, priceTiers, paths) => {
    expect(priceTierProblems({ price: 5, qty: 100, priceTiers }).map((p) => p.path)).toEqual(paths);
  });

  it('compares prices in cents: 4.35 is below 4.36 and not below 4.35', () => {
    expect(priceTierProblems({ price: 4.36, qty: 1, priceTiers: [{ fromQty: 2, price: 4.35 }] })).toEqual([]);
    expect(
      priceTierProblems({ price: 4.35, qty: 1, priceTiers: [{ fromQty: 2, price: 4.35 }] }),
    ).toHaveLength(1);
  });
});

const part = {
  name: 'Iridium Spark Plug',
  text: 'Long-life plug',
  img: 'https://example.com/plug.png',
  price: 5,
  qty: 100,
  availableQty: 1000,
};
const paths = (result: { error?: { issues: { path: PropertyKey[] }[] } }) =>
  (result.error?.issues ?? []).map((i) => i.path.join('.'));

describe('priceTiers on POST /parts', () => {
  it('are optional and kept as sent', () => {
    expect(partInputSchema.parse(part)).not.toHaveProperty('priceTiers');
    expect(partInputSchema.parse({ ...part, priceTiers: tiered.priceTiers }).priceTiers).toEqual(
      tiered.priceTiers,
    );
  });

  it(`take at most ${MAX_PRICE_TIERS}`, () => {
    const tiers = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ fromQty: 200 + i, price: 4 - i / 10 }));
    expect(partInputSchema.safeParse({ ...part, priceTiers: tiers(MAX_PRICE_TIERS) }).success).toBe(true);
    const six = partInputSchema.safeParse({ ...part, priceTiers: tiers(MAX_PRICE_TIERS + 1) });
    expect(paths(six)).toEqual(['priceTiers']);
    expect(six.error?.issues[0]?.message).toBe('must have at most 5 tiers');
  });

  it.each([
    ['a fractional quantity', { fromQty: 200.5, price: 4 }, 'priceTiers.0.fromQty'],
    ['a quantity as a string', { fromQty: '200', price: 4 }, 'priceTiers.0.fromQty'],
    ['three decimals', { fromQty: 200, price: 4.005 }, 'priceTiers.0.price'],
    ['no price', { fromQty: 200 }, 'priceTiers.0.price'],
    ['an operator object', { fromQty: { $gt: 0 }, price: 4 }, 'priceTiers.0.fromQty'],
  ])('refuse %s, naming the tier and field', (_case, tier, path) => {
    expect(paths(partInputSchema.safeParse({ ...part, priceTiers: [tier] }))).toEqual([path]);
  });

  it('refuse tiers that break the rules, naming each', () => {
    const result = partInputSchema.safeParse({
      ...part,
      priceTiers: [
        { fromQty: 100, price: 4 },
        { fromQty: 90, price: 4.5 },
      ],
    });
    expect(paths(result)).toEqual(['priceTiers.0.fromQty', 'priceTiers.1.fromQty', 'priceTiers.1.price']);
    expect(result.error?.issues[0]?.message).toBe('must be above the minimum order quantity (100)');
  });
});

describe('PUT /parts/:id body', () => {
  const edit = { name: part.name, text: part.text, img: part.img, price: 5, qty: 100 };

  it('keeps category and priceTiers out when not sent (they stay as stored)', () => {
    expect(partEditSchema.parse(edit)).toEqual(edit);
    expect(partEditSchema.parse({ ...edit, priceTiers: [] })).toEqual({ ...edit, priceTiers: [] });
  });

  it('refuses availableQty, naming it', () => {
    for (const availableQty of [1000, 0, '5', null]) {
      const result = partEditSchema.safeParse({ ...edit, availableQty });
      expect(paths(result)).toEqual(['availableQty']);
      expect(result.error?.issues[0]?.message).toBe(STOCK_NOT_EDITABLE);
    }
  });

  it('checks the tiers it carries against its own qty and price', () => {
    const priceTiers = [{ fromQty: 500, price: 4.5 }];
    expect(partEditSchema.safeParse({ ...edit, priceTiers }).success).toBe(true);
    expect(paths(partEditSchema.safeParse({ ...edit, qty: 500, priceTiers }))).toEqual([
      'priceTiers.0.fromQty',
    ]);
    expect(paths(partEditSchema.safeParse({ ...edit, price: 4.5, priceTiers }))).toEqual([
      'priceTiers.0.price',
    ]);
  });
});
