import {
  createApi,
  fetchBaseQuery,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { clearStoredSession, signedOut } from './auth-slice';
import { TAG_TYPES } from './cache-tags';
import { getConfig } from './runtime-config';

export interface ApiExtraOptions {
  /** SPEC §7: on My Order a 403 also signs the user out. Elsewhere a 403 is just "not allowed". */
  signOutOnForbidden?: boolean;
}

interface TokenHolder {
  auth: { token: string | null };
}

const rawBaseQuery = fetchBaseQuery({
  // Resolved per request: the base URL comes from /config.json, loaded after this module.
  baseUrl: '',
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as TokenHolder).auth.token;
    if (token) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  ApiExtraOptions,
  FetchBaseQueryMeta
> = async (args, api, extraOptions) => {
  const base = getConfig().apiBaseUrl.replace(/\/$/, '');
  const request = typeof args === 'string' ? { url: args } : args;
  const result = await rawBaseQuery({ ...request, url: `${base}${request.url}` }, api, extraOptions ?? {});
  const status = result.error?.status;
  if (status === 401 || (status === 403 && extraOptions?.signOutOnForbidden)) {
    clearStoredSession();
    api.dispatch(signedOut());
  }
  return result;
};

/** The one RTK Query API. Remotes add their endpoints with `baseApi.injectEndpoints`. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});

/** Message to show for a failed call: the API's own message when it sent one. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: { error?: { message?: unknown } } }).data;
    if (typeof data?.error?.message === 'string') return data.error.message;
  }
  return fallback;
}
