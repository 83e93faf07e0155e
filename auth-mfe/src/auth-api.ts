import type { TokenResponse } from '@motoparts/contracts';
import { baseApi } from '@motoparts/state';

/** Token exchange (docs/product.md PUT /user/:email): a Firebase ID token in, our API token out. */
export const authApi = baseApi.injectEndpoints({
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
    /** Sign-out on the API: every API token of the account stops working at once. */
    endSession: build.mutation<{ success: true }, { token: string }>({
      query: ({ token }) => ({
        url: '/session',
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      }),
      extraOptions: { noRenewal: true },
    }),
  }),
});
