import type { MakeAdminResult, ProfileUpdate, Success, User } from '@motoparts/contracts';
import { baseApi, LIST_TAGS, profileTag } from '@motoparts/state';
import { ADMIN_PAGE_SIZE, toListPage, type ListPage } from '../../lib/list-page';

/** My Profile's edits (its record is read through the kit's profileApi) and the admins' All Users. */
export const usersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<{ success: true; user: User }, { email: string; fields: ProfileUpdate }>({
      query: ({ email, fields }) => ({
        url: `/userInfo/${encodeURIComponent(email)}`,
        method: 'PUT',
        body: fields,
      }),
      invalidatesTags: (_res, _err, { email }) => [profileTag(email)],
    }),

    getUsers: build.query<ListPage<User>, number>({
      query: (page) => ({ url: '/user', params: { page, limit: ADMIN_PAGE_SIZE } }),
      transformResponse: (users: User[], meta) => toListPage(users, meta),
      providesTags: [LIST_TAGS.users],
    }),
    makeAdmin: build.mutation<MakeAdminResult, string>({
      query: (email) => ({ url: `/user/admin/${encodeURIComponent(email)}`, method: 'PUT' }),
      // Promoting someone who already is an admin changes nothing, so nothing is refetched.
      invalidatesTags: (res) => (res && res.modifiedCount > 0 ? [LIST_TAGS.users] : []),
    }),
    /** Takes the admin role (never one's own, never the last admin's: the API answers 409). */
    removeAdmin: build.mutation<MakeAdminResult, string>({
      query: (email) => ({ url: `/user/admin/${encodeURIComponent(email)}`, method: 'DELETE' }),
      invalidatesTags: (res) => (res && res.modifiedCount > 0 ? [LIST_TAGS.users] : []),
    }),
    /** Disables the account (its tokens stop, it cannot sign in), or enables it again. */
    setDisabled: build.mutation<User, { email: string; disabled: boolean }>({
      query: ({ email, disabled }) => ({
        url: `/user/disabled/${encodeURIComponent(email)}`,
        method: disabled ? 'PUT' : 'DELETE',
      }),
      invalidatesTags: [LIST_TAGS.users],
    }),
    /** Signs the account out on every device; the answer comes once a new sign-in is accepted. */
    endSessions: build.mutation<Success, string>({
      query: (email) => ({ url: `/session/${encodeURIComponent(email)}`, method: 'DELETE' }),
      // Nothing a list or a profile shows changes: sessions are not shown anywhere.
      invalidatesTags: [],
    }),
  }),
});

export const {
  useUpdateProfileMutation,
  useGetUsersQuery,
  useMakeAdminMutation,
  useRemoveAdminMutation,
  useSetDisabledMutation,
  useEndSessionsMutation,
} = usersApi;
export { useGetProfileQuery } from '@motoparts/state';
