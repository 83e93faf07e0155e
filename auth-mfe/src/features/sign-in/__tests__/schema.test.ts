import { MESSAGES } from '@motoparts/contracts';
import { loginFormSchema, signupFormSchema } from '../schema';

/** First message zod reports for each field, as the form would show it. */
function messages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0]);
    out[key] ??= issue.message;
  }
  return out;
}

describe('login form schema (docs/product.md)', () => {
  it('requires the email and the password with the exact messages', () => {
    expect(messages(loginFormSchema.safeParse({ email: '', password: '' }))).toEqual({
      email: 'email required',
      password: 'password required',
    });
  });

  it('rejects an email that does not match the pattern', () => {
    for (const email of [
      'rider',
      'rider@',
      'rider@motoparts',
      'rider@motoparts.t',
      'rider@motoparts.toolong',
      'a b@x.com',
    ]) {
      expect(messages(loginFormSchema.safeParse({ email, password: 'secret1' })).email).toBe(
        'Please enter a valid email',
      );
    }
  });

  it('accepts simple addresses and the demo accounts', () => {
    for (const email of [
      'rider@motoparts.test',
      'admin@motoparts.test',
      'maya.torres@example.com',
      'a1@bc.de',
    ]) {
      expect(loginFormSchema.safeParse({ email, password: 'secret1' }).success).toBe(true);
    }
  });

  it('wants at least six characters of password', () => {
    expect(messages(loginFormSchema.safeParse({ email: 'a@b.com', password: '12345' })).password).toBe(
      'password must contain at last six characters',
    );
    expect(loginFormSchema.safeParse({ email: 'a@b.com', password: '123456' }).success).toBe(true);
  });
});

describe('signup form schema (docs/product.md)', () => {
  it('requires the name with the exact message', () => {
    expect(
      messages(signupFormSchema.safeParse({ name: '  ', email: 'a@b.com', password: 'secret1' })),
    ).toEqual({
      name: 'name required',
    });
  });

  it('reports every field at once with the texts of docs/product.md', () => {
    expect(messages(signupFormSchema.safeParse({ name: '', email: 'nope', password: '1' }))).toEqual({
      name: MESSAGES.nameRequired,
      email: MESSAGES.emailInvalid,
      password: MESSAGES.passwordShort,
    });
  });

  it('refuses a name with control characters and trims the one it keeps', () => {
    const base = { email: 'a@b.com', password: 'secret1' };
    expect(signupFormSchema.safeParse({ ...base, name: 'Road\u0007Rider' }).success).toBe(false);
    expect(signupFormSchema.parse({ ...base, name: '  Road Rider ' }).name).toBe('Road Rider');
  });

  it('accepts a complete sign-up', () => {
    expect(
      signupFormSchema.safeParse({
        name: 'Road Rider',
        email: 'new.rider@motoparts.test',
        password: 'rider-pass',
      }).success,
    ).toBe(true);
  });
});

describe('exact texts (docs/product.md)', () => {
  it('spells every form message as the product description does', () => {
    expect(MESSAGES).toMatchObject({
      emailRequired: 'email required',
      emailInvalid: 'Please enter a valid email',
      passwordRequired: 'password required',
      passwordShort: 'password must contain at last six characters',
      nameRequired: 'name required',
    });
  });
});
