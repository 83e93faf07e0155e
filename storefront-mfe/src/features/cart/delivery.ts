import {
  DELIVERY_ADDRESS_MAX_LENGTH,
  DELIVERY_PHONE_MIN_LENGTH,
  PHONE_CHARACTERS,
  PHONE_MAX_LENGTH,
  PHONE_PATTERN,
} from '@motoparts/contracts/contact';

/** Where a checkout's parts go (POST /checkout's body). */
export interface Delivery {
  address: string;
  phone: string;
}

export type DeliveryErrors = Partial<Record<keyof Delivery, string>>;

/**
 * The rules POST /checkout applies to the delivery details, checked before sending so each field
 * can say what is wrong (the API's answer would name the field only). Zod-free, like the rest of
 * the storefront's pages, so the cart page does not carry the schema library.
 */
export function deliveryErrors({ address, phone }: Delivery): DeliveryErrors {
  const errors: DeliveryErrors = {};
  const a = address.trim();
  const p = phone.trim();
  if (!a) errors.address = 'Address is required';
  else if (a.length > DELIVERY_ADDRESS_MAX_LENGTH)
    errors.address = `Address must be at most ${DELIVERY_ADDRESS_MAX_LENGTH} characters`;
  if (!p) errors.phone = 'Phone is required';
  else if (!PHONE_PATTERN.test(p)) errors.phone = `Phone may contain only ${PHONE_CHARACTERS}`;
  else if (p.length < DELIVERY_PHONE_MIN_LENGTH)
    errors.phone = `Phone must have at least ${DELIVERY_PHONE_MIN_LENGTH} characters`;
  else if (p.length > PHONE_MAX_LENGTH) errors.phone = `Phone must be at most ${PHONE_MAX_LENGTH} characters`;
  return errors;
}
