// @ts-check
// The Redux Toolkit every front end imports. This file's import of '@reduxjs/toolkit' is the
// package's modern ES build (shared.cjs). A remote that needs a name this list does not offer
// takes it from its own copy until a shell release adds it here (docs/build.md, "A name the
// shell does not offer").

// What our stores, slices and listeners use.
export {
  combineSlices,
  configureStore,
  createAction,
  createAsyncThunk,
  createListenerMiddleware,
  createReducer,
  createSelector,
  createSlice,
  isAnyOf,
  nanoid,
} from '@reduxjs/toolkit';

// The rest of what RTK Query's own files import from '@reduxjs/toolkit': that import is consumed
// from the share scope too. Every build compares this with the installed RTK Query (slim-check.cjs).
export {
  SHOULD_AUTOBATCH,
  combineReducers,
  createNextState,
  formatProdErrorMessage,
  isAction,
  isAllOf,
  isAsyncThunkAction,
  isFulfilled,
  isPending,
  isPlainObject,
  isRejected,
  isRejectedWithValue,
  prepareAutoBatched,
} from '@reduxjs/toolkit';
