import { authSlice, readStoredSession, signedIn, signedOut } from '../auth-slice';

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const jwt = (claims: object) => `${b64url({ alg: 'HS256' })}.${b64url(claims)}.signature`;
const NOW = Date.UTC(2026, 10, 23, 12);
const user = { email: 'rider@motoparts.test', displayName: 'Road Rider', photoURL: null };

function storage(entries: Record<string, string>) {
  return { getItem: (key: string) => entries[key] ?? null };
}

describe('readStoredSession', () => {
  it('restores a session whose token is still valid, with the admin flag from the token', () => {
    const token = jwt({ email: user.email, admin: true, exp: NOW / 1000 + 60 });
    const session = readStoredSession(
      storage({ accessToken: token, 'motoparts.sessionUser': JSON.stringify(user) }),
      NOW,
    );
    expect(session).toEqual({ user, token, admin: true });
  });

  it.each([
    ['an expired token', jwt({ email: user.email, exp: NOW / 1000 - 1 }), JSON.stringify(user)],
    ['a token for another email', jwt({ email: 'x@y.com', exp: NOW / 1000 + 60 }), JSON.stringify(user)],
    ['a token without expiry', jwt({ email: user.email }), JSON.stringify(user)],
    ['a malformed token', 'not-a-jwt', JSON.stringify(user)],
    ['a corrupt stored user', jwt({ email: user.email, exp: NOW / 1000 + 60 }), '{'],
  ])('ignores %s', (_case, token, rawUser) => {
    expect(
      readStoredSession(storage({ accessToken: token, 'motoparts.sessionUser': rawUser }), NOW),
    ).toBeNull();
  });
});

describe('auth slice', () => {
  it('signs in and out as events', () => {
    const reducer = authSlice.reducer;
    const inState = reducer(undefined, signedIn({ user, token: 't', admin: false }));
    expect(inState).toEqual({ status: 'signedIn', user, token: 't', admin: false });
    expect(reducer(inState, signedOut())).toEqual({
      status: 'signedOut',
      user: null,
      token: null,
      admin: false,
    });
  });
});
