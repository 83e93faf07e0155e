import type { TokenResponse } from '@motoparts/contracts';
import { baseApi } from '@motoparts/state';

/** Token exchange (SPEC §7 PUT /user/:email): a Firebase ID token in, our API token out. */
export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    exchangeToken: build.mutation<TokenResponse, { email: string; idToken: string }>({
      query: ({ email, idToken }) => ({
        url: `/user/${encodeURIComponent(email)}`,
        method: 'PUT',
        // The bearer here is Firebase's, not ours (we have none yet).
        headers: { authorization: `Bearer ${idToken}` },
        body: { email },
      }),
    }),
  }),
});
