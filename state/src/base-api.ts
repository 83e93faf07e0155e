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
  /** docs/product.md: on My Order a 403 also signs the user out. Elsewhere a 403 is just "not allowed". */
  signOutOnForbidden?: boolean;
  /** The token exchange sends Firebase's token, not ours: a 401 there is final, never renewed. */
  noRenewal?: boolean;
}

interface TokenHolder {
  auth: { token: string | null };
}

const rawBaseQuery = fetchBaseQuery({
  // Resolved per request: the base URL comes from /config.json, loaded after this module.
  baseUrl: '',
  prepareHeaders: (headers, { getState }) => {
    const token = (getState() as TokenHolder).auth.token;
    // A call that brings its own credentials (the token exchange sends the Firebase ID token,
    // also while renewing a refused API token) keeps them.
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

/**
 * Renews our short-lived API token from the Firebase session (the auth remote provides it through
 * the shell); resolves to the new token, or null when the session is over.
 */
type SessionRenewer = () => Promise<string | null>;
let renewer: SessionRenewer | null = null;
let renewing: Promise<string | null> | null = null;

export function setSessionRenewer(fn: SessionRenewer | null): void {
  renewer = fn;
}

/** One renewal at a time: requests that fail together wait for the same new token. */
export function renewSessionOnce(): Promise<string | null> {
  if (!renewer) return Promise.resolve(null);
  renewing ??= renewer()
    .catch(() => null)
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

const baseQuery: BaseQueryFn<
  string | FetchArgs,
  unknown,
  FetchBaseQueryError,
  ApiExtraOptions,
  FetchBaseQueryMeta
> = async (args, api, extraOptions) => {
  const base = getConfig().apiBaseUrl.replace(/\/$/, '');
  const request = typeof args === 'string' ? { url: args } : args;
  let result = await rawBaseQuery({ ...request, url: `${base}${request.url}` }, api, extraOptions ?? {});
  // An expired token (a laptop woken after the renewal was due): renew once and retry.
  const sentOurToken = (api.getState() as TokenHolder).auth.token !== null && !extraOptions?.noRenewal;
  if (result.error?.status === 401 && sentOurToken && (await renewSessionOnce())) {
    result = await rawBaseQuery({ ...request, url: `${base}${request.url}` }, api, extraOptions ?? {});
  }
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
