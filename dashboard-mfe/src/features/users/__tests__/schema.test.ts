import { MESSAGES, profileFieldsSchema } from '@motoparts/contracts';
import { profileFormSchema } from '../schema';

function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]));
}

describe('Profile form and texts', () => {
  it('validates phone and LinkedIn fields with the contract schema', () => {
    expect(profileFieldsSchema.safeParse({ phone: '+1 (555) 010-2000', linkedin: '' }).success).toBe(true);
    expect(profileFieldsSchema.safeParse({ phone: 'call me' }).success).toBe(false);
    expect(profileFieldsSchema.safeParse({ linkedin: 'linkedin.com/in/x' }).success).toBe(false);
  });

  it('uses the exact texts of docs/product.md', () => {
    expect(MESSAGES.profileUpdated).toBe('Profile update successfully');
    expect(MESSAGES.madeAdmin).toBe('Successfully made an admin');
    expect(MESSAGES.makeAdminFailed).toBe('Failed to Make an admin');
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
  it('keeps each field within the length the API takes', () => {
    expect(
      messages(profileFormSchema.safeParse({ ...blank, education: 'x'.repeat(201), phone: '1'.repeat(41) })),
    ).toEqual({
      education: 'Education must be at most 200 characters',
      phone: 'Phone must be at most 40 characters',
    });
    expect(profileFormSchema.parse({ ...blank, linkedin: '  ' })).toEqual(blank);
  });
});
