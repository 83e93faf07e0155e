import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { TAG_TYPES } from './cache-tags';
import { getConfig } from './runtime-config';
import type { SessionHost, SessionThunkExtra } from './session/contract';
import { signedOut } from './session/slice';
import { selectToken, type WithSession } from './session/state';

export interface ApiExtraOptions {
  /** docs/product.md: on My Order a 403 also signs the user out. Elsewhere a 403 is just "not allowed". */
  signOutOnForbidden?: boolean;
  /** The token exchange sends Firebase's token, not ours: a 401 there is final, never renewed. */
  noRenewal?: boolean;
}

const rawBaseQuery = fetchBaseQuery({
  // Resolved per request: the base URL comes from /config.json, loaded after this module.
  baseUrl: '',
  prepareHeaders: (headers, { getState }) => {
    const token = selectToken(getState() as WithSession);
    // A call that brings its own credentials (the token exchange sends the Firebase ID token,
    // also while renewing a refused API token) keeps them.
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

/**
 * Renews our short-lived API token through the store's session listeners (the auth remote does
 * the work); resolves to the new token, or null when the session is over or cannot be renewed
 * here (a store made without `makeStore`).
 */
function renewSession(api: BaseQueryApi): Promise<string | null> {
  const extra = api.extra as Partial<SessionThunkExtra> | undefined;
  if (!extra?.renewSession) return Promise.resolve(null);
  // RTK Query types the store loosely here; these are the store's own dispatch and state.
  return extra.renewSession({
    dispatch: api.dispatch as SessionHost['dispatch'],
    getState: api.getState as () => WithSession,
  });
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
  // Refused because the sign-out under way was recorded: the sign-out ends the session itself,
  // once the API has answered it.
  const extra = api.extra as Partial<SessionThunkExtra> | undefined;
  if (result.error?.status === 401 && extra?.endingSession?.(api.getState() as WithSession)) return result;
  // An expired token (a laptop woken after the renewal was due): renew once and retry.
  const sentOurToken = selectToken(api.getState() as WithSession) !== null && !extraOptions?.noRenewal;
  if (result.error?.status === 401 && sentOurToken && (await renewSession(api))) {
    result = await rawBaseQuery({ ...request, url: `${base}${request.url}` }, api, extraOptions ?? {});
  }
  const status = result.error?.status;
  if (status === 401 || (status === 403 && extraOptions?.signOutOnForbidden)) {
    // The session listeners clear the stored session too.
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
