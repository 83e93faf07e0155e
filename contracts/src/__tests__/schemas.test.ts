import {
  orderInputSchema,
  partInputSchema,
  PHONE_PATTERN,
  profileFieldsSchema,
  profileUpdateSchema,
  reviewInputSchema,
  UI_EMAIL_PATTERN,
  emailSchema,
} from '../index';

const validPart = {
  name: 'Iridium Spark Plug',
  text: 'Long-life plug',
  img: 'https://example.com/plug.png',
  price: 12.5,
  qty: 100,
  availableQty: 1000,
};

describe('emailSchema', () => {
  it('refuses an over-long address on its length alone: no pattern runs on it', () => {
    const long = `a@${'a.'.repeat(7000)}@`;
    const result = emailSchema.safeParse(long);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.code)).toEqual(['too_big']);
  });

  it('takes addresses with dotted domains, trimmed and lower-cased, and refuses malformed ones', () => {
    expect(emailSchema.parse(' Rider.One+shop@Moto-Parts.co.uk ')).toBe('rider.one+shop@moto-parts.co.uk');
    for (const bad of ['a@b', 'a@b.', 'a@.b', 'a@b..c', 'a b@c.d', 'a@@b.c', '@b.c', 'a$@b.c']) {
      expect(emailSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe('partInputSchema', () => {
  it('accepts a valid part and strips unknown fields', () => {
    const parsed = partInputSchema.parse({ ...validPart, role: 'admin', $where: '1' });
    // A client that sends no category (written before categories existed) gets the default one.
    expect(parsed).toEqual({ ...validPart, category: 'parts' });
    expect(partInputSchema.parse({ ...validPart, category: 'gear' }).category).toBe('gear');
  });

  it('takes only the three categories', () => {
    for (const category of ['bikes', 'Parts', '', null, 1]) {
      expect(partInputSchema.safeParse({ ...validPart, category }).success).toBe(false);
    }
  });

  it.each([
    ['operator object in a string field', { name: { $gt: '' } }, 'name'],
    ['operator object in a number field', { price: { $gt: 0 } }, 'price'],
    ['more than two decimals', { price: 1.234 }, 'price'],
    ['a price of nothing', { price: 0 }, 'price'],
    ['a negative price', { price: -1 }, 'price'],
    ['fractional quantity', { qty: 100.5 }, 'qty'],
    ['negative stock', { availableQty: -1 }, 'availableQty'],
    ['number as string', { availableQty: '1000' }, 'availableQty'],
    ['script URL', { img: 'javascript:alert(1)' }, 'img'],
  ])('rejects %s and names the field', (_case, patch, field) => {
    const result = partInputSchema.safeParse({ ...validPart, ...patch });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join('.'))).toContain(field);
  });
});

describe('prices', () => {
  it('takes any amount from one cent, in whole cents', () => {
    for (const price of [0.01, 0.1, 12.5, 999.99, 1_000_000]) {
      expect(partInputSchema.safeParse({ ...validPart, price }).success).toBe(true);
    }
    for (const price of [0, 0.001, 0.005, 1_000_000.01]) {
      expect(partInputSchema.safeParse({ ...validPart, price }).success).toBe(false);
    }
  });
});

describe('profile', () => {
  it('takes a phone number of digits, spaces and + ( ) - .', () => {
    expect(PHONE_PATTERN.test('+1 (555) 010-2000')).toBe(true);
    expect(PHONE_PATTERN.test('555.010.2000')).toBe(true);
    expect(PHONE_PATTERN.test('call me')).toBe(false);
    const refused = profileUpdateSchema.safeParse({ phone: 'call me' });
    expect(refused.error?.issues.map((i) => i.message)).toEqual([
      'must contain only digits, spaces and + ( ) - .',
    ]);
  });

  it('fills the fields left out of a whole profile, and leaves them out of an update', () => {
    expect(profileFieldsSchema.parse({ location: ' Dhaka ' })).toEqual({
      education: '',
      location: 'Dhaka',
      phone: '',
      linkedin: '',
    });
    expect(profileUpdateSchema.parse({ linkedin: '' })).toEqual({ linkedin: '' });
    expect(profileUpdateSchema.safeParse({ linkedin: 'linkedin.com/in/x' }).success).toBe(false);
    expect(profileUpdateSchema.safeParse({ education: 'x'.repeat(201) }).success).toBe(false);
  });
});

describe('orders and reviews', () => {
  it('requires a 24-hex part id and an integer quantity', () => {
    expect(orderInputSchema.safeParse({ partsId: 'abc', qty: 100 }).success).toBe(false);
    expect(orderInputSchema.safeParse({ partsId: 'a'.repeat(24), qty: 100.5 }).success).toBe(false);
    expect(orderInputSchema.safeParse({ partsId: 'a'.repeat(24), qty: 100 }).success).toBe(true);
  });

  it('bounds the rating to whole stars 1–5', () => {
    const base = { img: 'https://example.com/me.png', review: 'Great' };
    expect(reviewInputSchema.safeParse({ ...base, rating: 0 }).success).toBe(false);
    expect(reviewInputSchema.safeParse({ ...base, rating: 6 }).success).toBe(false);
    expect(reviewInputSchema.safeParse({ ...base, rating: 4.5 }).success).toBe(false);
    expect(reviewInputSchema.safeParse({ ...base, rating: 5 }).success).toBe(true);
  });
});

// The sign-in forms' schemas and their exact messages are tested with the forms, in auth-mfe.
describe('sign-in email pattern (docs/product.md)', () => {
  it('accepts the demo accounts and rejects malformed addresses', () => {
    expect(UI_EMAIL_PATTERN.test('admin@motoparts.test')).toBe(true);
    expect(UI_EMAIL_PATTERN.test('rider@shop.com')).toBe(true);
    expect(UI_EMAIL_PATTERN.test('rider@shop')).toBe(false);
    expect(UI_EMAIL_PATTERN.test('rider@shop.c')).toBe(false);
    expect(UI_EMAIL_PATTERN.test('rider shop@x.com')).toBe(false);
  });
});
