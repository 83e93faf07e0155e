import { z } from 'zod';
// The package's main entry (not `/messages`) on purpose: it also turns zod's JIT off in browsers,
// which the Content-Security-Policy would refuse.
import { CONTROL_CHARS_MESSAGE, MESSAGES, NO_CONTROL_CHARS, UI_EMAIL_PATTERN } from '@motoparts/contracts';

/**
 * The login and sign-up forms, with the exact messages of docs/product.md. Built from the
 * contracts' texts and patterns; stricter than the API's email rule (see UI_EMAIL_PATTERN).
 */
const email = z.string().min(1, MESSAGES.emailRequired).regex(UI_EMAIL_PATTERN, MESSAGES.emailInvalid);
const password = z.string().min(1, MESSAGES.passwordRequired).min(6, MESSAGES.passwordShort);

export const loginFormSchema = z.object({ email, password });
export type LoginFormValues = z.infer<typeof loginFormSchema>;

export const signupFormSchema = z.object({
  // Becomes the Firebase display name and the API's user name: one line, no control characters.
  name: z.string().regex(NO_CONTROL_CHARS, CONTROL_CHARS_MESSAGE).trim().min(1, MESSAGES.nameRequired),
  email,
  password,
});
export type SignupFormValues = z.infer<typeof signupFormSchema>;
