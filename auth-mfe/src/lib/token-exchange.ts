import type { User } from 'firebase/auth';
import type { TokenResponse } from '@motoparts/contracts';
import { baseApi, signedIn, type SessionHost, type SessionUser } from '@motoparts/state';

/** Token exchange (docs/product.md PUT /user/:email): a Firebase ID token in, our API token out. */
export const tokenApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    exchangeToken: build.mutation<TokenResponse, { email: string; idToken: string }>({
      query: ({ email, idToken }) => ({
        url: `/user/${encodeURIComponent(email)}`,
        method: 'PUT',
        // The bearer here is Firebase's, not ours (also when renewing: base-api keeps this header).
        headers: { authorization: `Bearer ${idToken}` },
        body: { email },
      }),
      extraOptions: { noRenewal: true },
    }),
  }),
});

/**
 * Turns a Firebase user into our session: exchanges the Firebase ID token for our API token and
 * dispatches `signedIn` (the shared kit's session listeners store it). A renewal (same person,
 * new token) keeps the cached data, and lands only while `renewal()` says the session it renews
 * is still the current one (null otherwise); a sign-in starts from a clean cache.
 */
export async function completeSignIn(
  // A store's dispatch, or a session listener's: only the session and the API cache are touched.
  dispatch: SessionHost['dispatch'],
  user: User,
  forceRefresh = false,
  { renewal }: { renewal?: () => boolean } = {},
): Promise<string | null> {
  if (!user.email) throw new Error('This account has no email address, so it cannot sign in here.');
  const idToken = await user.getIdToken(forceRefresh);
  const { token, admin } = await dispatch(
    tokenApi.endpoints.exchangeToken.initiate({ email: user.email, idToken }),
  ).unwrap();
  if (renewal && !renewal()) return null;
  const sessionUser: SessionUser = {
    email: user.email,
    displayName: user.displayName,
    photoURL: user.photoURL,
  };
  // Data cached for a previous visitor (their orders, their profile) must not leak into this session.
  if (!renewal) dispatch(baseApi.util.resetApiState());
  dispatch(signedIn({ user: sessionUser, token, admin }));
  return token;
}
