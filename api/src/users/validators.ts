import { emailSchema, userSchema } from '@motoparts/contracts';
import { z } from 'zod';

/** `/user/:email`, `/userInfo/:email`, …: an account's email address. */
export const emailParams = z.object({
  email: emailSchema.meta({ description: 'The email address of the account (compared in lower case).' }),
});

/** An account's record, named `User` in the API document. */
export const UserSchema = userSchema.meta({ id: 'User' });

/** PUT /userInfo/:email answer. */
export const updatedProfileSchema = z.object({ success: z.literal(true), user: UserSchema });
