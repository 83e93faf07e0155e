import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { baseApi } from './base-api';
import type { LoadSessionModule } from './session/contract';
import { createSessionListeners } from './session/listeners';
import { sessionSlice } from './session/slice';

/**
 * The root reducer: the API cache and the session are always there; each remote injects its
 * own slices with `rootReducer.inject(slice)` when its code loads.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- remotes widen it by declaration merging
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(baseApi, sessionSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export interface StoreOptions {
  preloadedState?: Partial<RootState>;
  /**
   * Where the session's Firebase side comes from: the auth remote's `session` module, loaded on
   * first need. Without it (a remote running alone) sign-out only ends the local session and
   * tokens are not renewed.
   */
  loadSessionModule?: LoadSessionModule;
}

export function makeStore({ preloadedState, loadSessionModule }: StoreOptions = {}) {
  const session = createSessionListeners(loadSessionModule);
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: session.extra } })
        .prepend(session.middleware)
        .concat(baseApi.middleware),
  });
}

export type RootState = ReturnType<typeof rootReducer>;
export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();
