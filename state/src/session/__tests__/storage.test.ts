import { readStoredSession } from '../storage';
import { jwt, rider as user } from './helpers';

const NOW = Date.UTC(2026, 10, 23, 12);

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

  it('needs both the token and the user', () => {
    const token = jwt({ email: user.email, exp: NOW / 1000 + 60 });
    expect(readStoredSession(storage({ accessToken: token }), NOW)).toBeNull();
    expect(readStoredSession(storage({ 'motoparts.sessionUser': JSON.stringify(user) }), NOW)).toBeNull();
  });
});
