import type { User } from '@motoparts/contracts';
import { baseApi } from './base-api';
import { profileTag } from './cache-tags';

/**
 * The signed-in account's own record (My Profile). In the kit rather than the dashboard so the
 * shell can ask for it as soon as /dashboard is opened, while the dashboard's code is on its way.
 */
export const profileApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<User, string>({
      query: (email) => `/user/${encodeURIComponent(email)}`,
      providesTags: (_user, _err, email) => [profileTag(email)],
    }),
  }),
});

export const { useGetProfileQuery } = profileApi;
