import { profileRenamed, restoreFailed, sessionSlice, signedIn, signedOut } from '../slice';
import { rider as user } from './helpers';

const reducer = sessionSlice.reducer;
const signedOutState = { status: 'signedOut', user: null, token: null, admin: false };

describe('session slice', () => {
  it('starts loading, then signs in and out as events', () => {
    expect(reducer(undefined, { type: 'init' })).toEqual({
      status: 'loading',
      user: null,
      token: null,
      admin: false,
    });
    const inState = reducer(undefined, signedIn({ user, token: 't', admin: false }));
    expect(inState).toEqual({ status: 'signedIn', user, token: 't', admin: false });
    expect(reducer(inState, signedOut())).toEqual(signedOutState);
  });

  it('treats a session that could not be checked as signed out', () => {
    expect(reducer(undefined, restoreFailed())).toEqual(signedOutState);
  });

  it('renames the signed-in user, keeping the photo unless one is given', () => {
    const inState = reducer(undefined, signedIn({ user, token: 't', admin: false }));
    const renamed = reducer(inState, profileRenamed({ displayName: 'Rider Two' }));
    expect(renamed.user).toEqual({ ...user, displayName: 'Rider Two' });
    expect(reducer(renamed, profileRenamed({ displayName: null, photoURL: '/me.png' })).user).toEqual({
      ...user,
      displayName: null,
      photoURL: '/me.png',
    });
    expect(reducer(reducer(undefined, signedOut()), profileRenamed({ displayName: 'X' })).user).toBeNull();
  });
});
