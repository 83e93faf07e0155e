/**
 * The rules of a customer's contact details (the profile's phone, a checkout's delivery address
 * and phone), free of zod so that a page's form can check them as the API will. `index.ts`
 * re-exports everything here. Not in `messages.ts`, which every storefront page carries.
 */

/** The characters a phone number may hold, as the profile forms and the API's message name them. */
export const PHONE_CHARACTERS = 'digits, spaces and + ( ) - .';
export const PHONE_PATTERN = /^[0-9+()\-.\s]*$/;
export const PHONE_MAX_LENGTH = 40;

/** POST /checkout's delivery details. */
export const DELIVERY_ADDRESS_MAX_LENGTH = 300;
export const DELIVERY_PHONE_MIN_LENGTH = 5;
