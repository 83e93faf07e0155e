import { MESSAGES } from '@motoparts/contracts';
import { addProductFormSchema, editProductFormSchema, restockFormSchema } from '../schema';

function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
}

const product = {
  name: 'Brake disc',
  text: 'Stainless, 320 mm',
  price: '12.5',
  qty: '100',
  availableQty: '2000',
  img: 'https://example.com/disc.jpg',
  category: 'tools',
  priceTiers: [] as { fromQty: string; price: string }[],
};

describe('Add Product form', () => {
  it('turns the text inputs into the API payload with numbers', () => {
    expect(addProductFormSchema.parse(product)).toEqual({
      ...product,
      price: 12.5,
      qty: 100,
      availableQty: 2000,
    });
  });

  it('requires every field', () => {
    const empty = {
      name: '',
      text: ' ',
      price: '',
      qty: '',
      availableQty: '',
      img: '',
      category: '',
      priceTiers: [],
    };
    expect(messages(addProductFormSchema.safeParse(empty))).toEqual({
      name: 'Name is required',
      text: 'Description is required',
      price: 'Price is required',
      qty: 'Minimum order quantity is required',
      availableQty: 'Available quantity is required',
      img: 'Photo URL is required',
      category: 'Choose a category',
    });
  });

  it('refuses numbers that are not numbers', () => {
    const bad = { ...product, price: 'ten', qty: '1e3', availableQty: '-5' };
    expect(messages(addProductFormSchema.safeParse(bad))).toEqual({
      price: 'Price must be a number',
      qty: 'Minimum order quantity must be a number',
      availableQty: 'Available quantity must be a number',
    });
    expect(messages(addProductFormSchema.safeParse({ ...product, qty: '10.5' }))).toEqual({
      qty: 'Minimum order quantity must be a whole number',
    });
    expect(messages(addProductFormSchema.safeParse({ ...product, price: '1.005' }))).toEqual({
      price: 'Price must have at most two decimals',
    });
  });

  it("says the contract's limits in the form's words", () => {
    expect(messages(addProductFormSchema.safeParse({ ...product, name: 'x'.repeat(121) }))).toEqual({
      name: 'Name must be at most 120 characters',
    });
    expect(messages(addProductFormSchema.safeParse({ ...product, text: 'x'.repeat(2001) }))).toEqual({
      text: 'Description must be at most 2000 characters',
    });
    expect(messages(addProductFormSchema.safeParse({ ...product, price: '0' }))).toEqual({
      price: 'Price must be at least 0.01',
    });
    expect(messages(addProductFormSchema.safeParse({ ...product, qty: '0' }))).toEqual({
      qty: 'Minimum order quantity must be at least 1',
    });
    expect(messages(addProductFormSchema.safeParse({ ...product, category: 'bikes' }))).toEqual({
      category: 'Choose a category',
    });
  });

  it('accepts a site image path and refuses a script URL', () => {
    expect(addProductFormSchema.safeParse({ ...product, img: '/images/parts/chain.svg' }).success).toBe(true);
    expect(messages(addProductFormSchema.safeParse({ ...product, img: 'javascript:alert(1)' })).img).toMatch(
      /must be a web address/,
    );
  });
});

/** Every message by its dotted path, for the tier rows' inputs. */
function messagesByPath(result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('volume prices (Add Product and Edit)', () => {
  const tiers = (...rows: [string, string][]) => rows.map(([fromQty, price]) => ({ fromQty, price }));

  it('turns each row into a tier with numbers', () => {
    const parsed = addProductFormSchema.parse({
      ...product,
      priceTiers: tiers(['500', '11.5'], ['1000', '10']),
    });
    expect(parsed.priceTiers).toEqual([
      { fromQty: 500, price: 11.5 },
      { fromQty: 1000, price: 10 },
    ]);
  });

  it("checks each row's inputs in the form's words", () => {
    const result = addProductFormSchema.safeParse({
      ...product,
      priceTiers: tiers(['', 'ten'], ['10.5', '9.999']),
    });
    expect(messagesByPath(result)).toEqual({
      'priceTiers.0.fromQty': 'From quantity is required',
      'priceTiers.0.price': 'Tier price must be a number',
      'priceTiers.1.fromQty': 'From quantity must be a whole number',
      'priceTiers.1.price': 'Tier price must have at most two decimals',
    });
  });

  it('checks the rows against the minimum, the price and each other, on the row that breaks the rule', () => {
    const result = addProductFormSchema.safeParse({
      ...product,
      priceTiers: tiers(['100', '12.5'], ['90', '13']),
    });
    expect(messagesByPath(result)).toEqual({
      'priceTiers.0.fromQty': 'From quantity must be above the minimum order quantity (100)',
      'priceTiers.0.price': "Tier price must be below the part's price",
      'priceTiers.1.fromQty': "From quantity must be above the previous tier's quantity (100)",
      'priceTiers.1.price': "Tier price must be below the previous tier's price",
    });
  });

  it('takes at most 5 rows', () => {
    const six = tiers(['200', '12'], ['300', '11'], ['400', '10'], ['500', '9'], ['600', '8'], ['700', '7']);
    expect(messagesByPath(addProductFormSchema.safeParse({ ...product, priceTiers: six }))).toEqual({
      priceTiers: 'At most 5 volume prices',
    });
    expect(addProductFormSchema.safeParse({ ...product, priceTiers: six.slice(0, 5) }).success).toBe(true);
  });

  it('Edit sends the same fields and tiers but never the stock', () => {
    const parsed = editProductFormSchema.parse({ ...product, priceTiers: tiers(['500', '11.5']) });
    expect(parsed).toEqual({
      name: product.name,
      text: product.text,
      img: product.img,
      price: 12.5,
      qty: 100,
      category: 'tools',
      priceTiers: [{ fromQty: 500, price: 11.5 }],
      availableQty: undefined,
    });
    expect(JSON.parse(JSON.stringify(parsed))).not.toHaveProperty('availableQty');
  });
});

describe('Restock form', () => {
  it('requires a whole, positive, numeric quantity', () => {
    expect(restockFormSchema.parse({ quantity: '250' })).toEqual({ quantity: 250 });
    expect(messages(restockFormSchema.safeParse({ quantity: '' })).quantity).toBe('Quantity is required');
    expect(messages(restockFormSchema.safeParse({ quantity: 'abc' })).quantity).toBe(
      'Quantity must be a number',
    );
    expect(messages(restockFormSchema.safeParse({ quantity: '0' })).quantity).toBe(
      'Quantity must be at least 1',
    );
    expect(messages(restockFormSchema.safeParse({ quantity: '2.5' })).quantity).toBe(
      'Quantity must be a whole number',
    );
  });
});

describe('product texts', () => {
  it('uses the exact texts of docs/product.md', () => {
    expect(MESSAGES.productAdded).toBe('Product added successfully');
    expect(MESSAGES.confirmDelete).toBe('Are you sure, you want to delete this product');
  });
});
