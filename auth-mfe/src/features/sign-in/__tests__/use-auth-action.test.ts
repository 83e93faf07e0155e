import { describeError } from '../use-auth-action';

describe('describeError', () => {
  it("shows the API's own message when it sent one", () => {
    expect(
      describeError({
        status: 403,
        data: { error: { code: 'FORBIDDEN', message: 'This account is disabled.' } },
      }),
    ).toBe('This account is disabled.');
  });

  it("shows Firebase's message as it is (docs/product.md)", () => {
    expect(describeError(new Error('Firebase: Error (auth/invalid-credential).'))).toBe(
      'Firebase: Error (auth/invalid-credential).',
    );
  });

  it('explains an API failure without a message as the server’s', () => {
    expect(describeError({ status: 500, data: 'Internal Server Error' })).toBe(
      'The MotoParts server could not complete the sign-in. Please try again.',
    );
    expect(describeError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe(
      'The MotoParts server could not complete the sign-in. Please try again.',
    );
  });

  it('falls back to a plain sign-in failure', () => {
    expect(describeError(undefined)).toBe('Sign-in failed. Please try again.');
    expect(describeError(new Error(''))).toBe('Sign-in failed. Please try again.');
    expect(describeError('nope')).toBe('Sign-in failed. Please try again.');
  });
});
