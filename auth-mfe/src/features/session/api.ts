import { baseApi } from '@motoparts/state';

export const sessionApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /**
     * Sign-out on the API: every API token of the account stops working at once, and so does every
     * Firebase ID token issued before it. Answers once a new sign-in would be accepted.
     */
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
