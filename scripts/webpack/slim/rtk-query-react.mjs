// @ts-check
// The RTK Query every front end imports (the one baseApi in @motoparts/state and the endpoints
// injected into it). This file's import of '@reduxjs/toolkit/query/react' is the package's modern
// ES build (shared.cjs); adding a name here is a release of the shell first (docs/build.md).
export {
  createApi,
  fetchBaseQuery,
  retry,
  setupListeners,
  skipToken,
  QueryStatus,
} from '@reduxjs/toolkit/query/react';
