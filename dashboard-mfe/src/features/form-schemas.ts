/**
 * The dashboard's form schemas. Inputs arrive as strings; these schemas give the person a plain
 * message per field and hand the API exactly the contract's payload (numbers as numbers). The
 * contract schemas stay the final word: each form's output is re-checked against them.
 */
import {
  imageUrlSchema,
  PART_CATEGORIES,
  partInputSchema,
  profileFieldsSchema,
  reviewInputSchema,
  stockChangeSchema,
} from '@motoparts/contracts';
import { z } from 'zod';

/**
 * Runs the contract schema on a form's output, reporting its issues on the same fields. (A plain
 * `.pipe(contract)` is refused by zod's types when the contract's inputs are optional.)
 */
function thenContract<T extends z.ZodType>(contract: T) {
  return (value: unknown, ctx: z.RefinementCtx): z.output<T> => {
    const result = contract.safeParse(value);
    if (result.success) return result.data;
    for (const issue of result.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    return z.NEVER;
  };
}

const required = (label: string) => z.string().trim().min(1, `${label} is required`);

/** Same rule as the API's image field (http(s) URL or a /path on this site), in plain words. */
const imageField = (label: string) =>
  required(label).pipe(
    z
      .string()
      .refine(
        (v) => imageUrlSchema.safeParse(v).success,
        `${label} must be a web address starting with http:// or https://`,
      ),
  );

/**
 * A required text field holding a number; `integer` also refuses decimals. Pipes stop at the
 * first failing stage, so an empty field says "required" and nothing else.
 */
function numberField(label: string, { integer = false, min = 0 }: { integer?: boolean; min?: number } = {}) {
  return required(label)
    .pipe(z.string().regex(/^\d+(\.\d+)?$/, `${label} must be a number`))
    .transform(Number)
    .pipe(
      z
        .number()
        .refine((n) => !integer || Number.isInteger(n), {
          message: `${label} must be a whole number`,
          abort: true,
        })
        .refine((n) => n >= min, `${label} must be at least ${min}`),
    );
}

export const addProductFormSchema = z
  .object({
    name: required('Name').pipe(z.string().max(120, 'Name must be at most 120 characters')),
    text: required('Description').pipe(z.string().max(2000, 'Description must be at most 2000 characters')),
    price: numberField('Price', { min: 0.01 }).pipe(
      z
        .number()
        .refine(
          (n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6,
          'Price must have at most two decimals',
        ),
    ),
    qty: numberField('Minimum order quantity', { integer: true, min: 1 }),
    availableQty: numberField('Available quantity', { integer: true }),
    img: imageField('Photo URL'),
    category: z.enum(PART_CATEGORIES, { message: 'Choose a category' }),
  })
  .transform(thenContract(partInputSchema));
export type AddProductFormValues = z.input<typeof addProductFormSchema>;

export const addReviewFormSchema = z
  .object({
    email: required('Email'),
    img: imageField('Photo URL'),
    review: required('Review').pipe(z.string().max(1000, 'Review must be at most 1000 characters')),
    rating: required('Rating')
      .pipe(z.string().regex(/^[1-5]$/, 'Rating must be a whole number from 1 to 5'))
      .transform(Number),
  })
  .transform(thenContract(reviewInputSchema));
export type AddReviewFormValues = z.input<typeof addReviewFormSchema>;

export const restockFormSchema = z
  .object({ quantity: numberField('Quantity', { integer: true, min: 1 }) })
  .transform(thenContract(stockChangeSchema));
export type RestockFormValues = z.input<typeof restockFormSchema>;

/** My Profile: every field optional (a profile can be partly filled), but well-formed when given. */
export const profileFormSchema = z
  .object({
    education: z.string().trim().max(200, 'Education must be at most 200 characters'),
    location: z.string().trim().max(200, 'Location must be at most 200 characters'),
    phone: z
      .string()
      .trim()
      .max(40, 'Phone must be at most 40 characters')
      .regex(/^[0-9+()\-.\s]*$/, 'Phone may contain only digits, spaces and + ( ) - .'),
    linkedin: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || /^https?:\/\/\S+$/i.test(v),
        'LinkedIn profile must be a web address starting with https://',
      ),
  })
  .transform(thenContract(profileFieldsSchema));
export type ProfileFormValues = z.input<typeof profileFormSchema>;
