import { partFieldsSchema, stockChangeSchema } from '@motoparts/contracts';
import type { z } from 'zod';
import { choiceField, imageField, numberField, textField } from '../../lib/form-fields';

const part = partFieldsSchema.shape;

/** Add Product: the text inputs, turned into the contract's payload (numbers as numbers). */
export const addProductFormSchema = partFieldsSchema.extend({
  name: textField(part.name, { label: 'Name' }),
  text: textField(part.text, { label: 'Description' }),
  price: numberField(part.price, { label: 'Price' }),
  qty: numberField(part.qty, { label: 'Minimum order quantity' }),
  availableQty: numberField(part.availableQty, { label: 'Available quantity' }),
  img: imageField(part.img, 'Photo URL'),
  category: choiceField(part.category, { label: 'Category', badValue: 'Choose a category' }),
});
export type AddProductFormValues = z.input<typeof addProductFormSchema>;

/** Manage Products: the pieces to add to one part's stock. */
export const restockFormSchema = stockChangeSchema.extend({
  quantity: numberField(stockChangeSchema.shape.quantity, { label: 'Quantity' }),
});
export type RestockFormValues = z.input<typeof restockFormSchema>;
