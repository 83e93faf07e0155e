import { MESSAGES, profileFieldsSchema } from '@motoparts/contracts';
import {
  addProductFormSchema,
  addReviewFormSchema,
  profileFormSchema,
  restockFormSchema,
} from '../form-schemas';

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
    const empty = { name: '', text: ' ', price: '', qty: '', availableQty: '', img: '', category: '' };
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

  it('accepts a site image path and refuses a script URL', () => {
    expect(addProductFormSchema.safeParse({ ...product, img: '/images/parts/chain.svg' }).success).toBe(true);
    expect(messages(addProductFormSchema.safeParse({ ...product, img: 'javascript:alert(1)' })).img).toMatch(
      /must be a web address/,
    );
  });
});

describe('Add Review form', () => {
  const review = {
    email: 'rider@motoparts.test',
    img: 'https://example.com/me.jpg',
    review: 'Great chain',
    rating: '5',
  };

  it('gives the API payload with a numeric rating', () => {
    expect(addReviewFormSchema.parse(review)).toEqual({ ...review, rating: 5 });
  });

  it('requires img, review and rating', () => {
    expect(messages(addReviewFormSchema.safeParse({ ...review, img: '', review: '', rating: '' }))).toEqual({
      img: 'Photo URL is required',
      review: 'Review is required',
      rating: 'Rating is required',
    });
  });

  it('keeps the rating within 1 to 5', () => {
    for (const rating of ['0', '6', '2.5', 'x']) {
      expect(messages(addReviewFormSchema.safeParse({ ...review, rating })).rating).toBe(
        'Rating must be a whole number from 1 to 5',
      );
    }
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
  });
});

describe('Profile form and texts', () => {
  it('validates phone and LinkedIn fields with the contract schema', () => {
    expect(profileFieldsSchema.safeParse({ phone: '+1 (555) 010-2000', linkedin: '' }).success).toBe(true);
    expect(profileFieldsSchema.safeParse({ phone: 'call me' }).success).toBe(false);
    expect(profileFieldsSchema.safeParse({ linkedin: 'linkedin.com/in/x' }).success).toBe(false);
  });

  it('uses the exact texts of docs/product.md', () => {
    expect(MESSAGES.profileUpdated).toBe('Profile update successfully');
    expect(MESSAGES.productAdded).toBe('Product added successfully');
    expect(MESSAGES.madeAdmin).toBe('Successfully made an admin');
    expect(MESSAGES.makeAdminFailed).toBe('Failed to Make an admin');
    expect(MESSAGES.confirmDelete).toBe('Are you sure, you want to delete this product');
    expect(MESSAGES.paymentDone).toBe('Congrats! Your payment is completed.');
  });
});

describe('My Profile form', () => {
  const blank = { education: '', location: '', phone: '', linkedin: '' };
  it('accepts a partly filled profile', () => {
    expect(profileFormSchema.parse({ ...blank, location: ' Dhaka ' })).toEqual({
      ...blank,
      location: 'Dhaka',
    });
  });
  it('explains malformed phone and LinkedIn values', () => {
    expect(
      messages(profileFormSchema.safeParse({ ...blank, phone: 'call me', linkedin: 'linkedin.com/in/x' })),
    ).toEqual({
      phone: 'Phone may contain only digits, spaces and + ( ) - .',
      linkedin: 'LinkedIn profile must be a web address starting with https://',
    });
  });
});
