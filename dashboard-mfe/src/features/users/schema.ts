import { PHONE_CHARACTERS, profileFieldsSchema } from '@motoparts/contracts';
import type { z } from 'zod';
import { textField } from '../../lib/form-fields';

const profile = profileFieldsSchema.shape;

/** My Profile: every field may be left empty (a profile can be partly filled), but well-formed when given. */
export const profileFormSchema = profileFieldsSchema.extend({
  education: textField(profile.education, { label: 'Education' }, { optional: true }),
  location: textField(profile.location, { label: 'Location' }, { optional: true }),
  phone: textField(
    profile.phone,
    { label: 'Phone', badValue: `Phone may contain only ${PHONE_CHARACTERS}` },
    { optional: true },
  ),
  linkedin: textField(
    profile.linkedin,
    { label: 'LinkedIn profile', badValue: 'LinkedIn profile must be a web address starting with https://' },
    { optional: true },
  ),
});
export type ProfileFormValues = z.input<typeof profileFormSchema>;
