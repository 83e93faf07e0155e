import { describeError, returnTo } from '../use-auth-action';

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

describe('returnTo', () => {
  it('goes back to the page that sent the visitor, with the state that page had asked to keep', () => {
    const from = { pathname: '/parts', search: '?q=chain', hash: '', state: { addToCart: { partId: 'p1' } } };
    expect(returnTo({ from })).toEqual({ path: '/parts?q=chain', state: { addToCart: { partId: 'p1' } } });
    expect(returnTo({ from: { pathname: '/cart' } })).toEqual({ path: '/cart', state: null });
  });

  it('goes home from nowhere, from the sign-in pages themselves and from outside the site', () => {
    expect(returnTo(null)).toEqual({ path: '/', state: null });
    expect(returnTo({ from: { pathname: '/login', state: { x: 1 } } })).toEqual({ path: '/', state: null });
    expect(returnTo({ from: 'https://elsewhere.example/' })).toEqual({ path: '/', state: null });
    expect(returnTo({ from: '/dashboard' })).toEqual({ path: '/dashboard', state: null });
  });
});
