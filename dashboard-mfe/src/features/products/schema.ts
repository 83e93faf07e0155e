import {
  MAX_PRICE_TIERS,
  partFieldsSchema,
  priceTierProblems,
  priceTiersSchema,
  stockChangeSchema,
  type PriceTier,
} from '@motoparts/contracts';
import { z } from 'zod';
import { choiceField, imageField, numberField, textField } from '../../lib/form-fields';

const part = partFieldsSchema.shape;
const tier = priceTiersSchema.element.shape;

/** The words a volume price's two inputs start their messages with. */
export const TIER_WORDS = {
  fromQty: { label: 'From quantity' },
  price: { label: 'Tier price' },
} as const;

/** One row of the volume prices: two text inputs, each checked by the contract's field. */
const tierRowSchema = z.object({
  fromQty: numberField(tier.fromQty, TIER_WORDS.fromQty),
  price: numberField(tier.price, TIER_WORDS.price),
});

/**
 * The tiers' rules between rows and against the part (pricing.ts), on the row's own input and in
 * the form's words ("From quantity must be above the minimum order quantity (100)"). Like any
 * refinement of the whole form, they run once every field is valid on its own.
 */
function tierRules(product: { price: number; qty: number; priceTiers: PriceTier[] }, ctx: z.RefinementCtx) {
  for (const { path, message } of priceTierProblems(product)) {
    ctx.addIssue({
      code: 'custom',
      path: ['priceTiers', ...path],
      message: `${TIER_WORDS[path[1]].label} ${message}`,
    });
  }
}

/** The inputs Add Product and Edit share, turned into the contract's payload (numbers as numbers). */
const productFields = {
  name: textField(part.name, { label: 'Name' }),
  text: textField(part.text, { label: 'Description' }),
  price: numberField(part.price, { label: 'Price' }),
  qty: numberField(part.qty, { label: 'Minimum order quantity' }),
  img: imageField(part.img, 'Photo URL'),
  category: choiceField(part.category, { label: 'Category', badValue: 'Choose a category' }),
  priceTiers: z.array(tierRowSchema).max(MAX_PRICE_TIERS, `At most ${MAX_PRICE_TIERS} volume prices`),
};

/** Add Product: every field of a new part, its stock included. */
export const addProductFormSchema = partFieldsSchema
  .extend({
    ...productFields,
    availableQty: numberField(part.availableQty, { label: 'Available quantity' }),
  })
  .superRefine(tierRules);
export type AddProductFormValues = z.input<typeof addProductFormSchema>;

/**
 * Edit (Manage Products): the same values, but the stock is never sent (only restocks and orders
 * change it; the API refuses it). The edit sends its category and tiers too, so what the form
 * shows is what the part becomes.
 */
export const editProductFormSchema = partFieldsSchema
  .extend({ ...productFields, availableQty: z.string().transform(() => undefined) })
  .superRefine(tierRules);

/** Manage Products: the pieces to add to one part's stock. */
export const restockFormSchema = stockChangeSchema.extend({
  quantity: numberField(stockChangeSchema.shape.quantity, { label: 'Quantity' }),
});
export type RestockFormValues = z.input<typeof restockFormSchema>;
