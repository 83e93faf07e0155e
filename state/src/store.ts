import { combineSlices, configureStore } from '@reduxjs/toolkit';
import { useDispatch, useSelector, useStore } from 'react-redux';
import { authSlice } from './auth-slice';
import { baseApi } from './base-api';

/**
 * The root reducer: the API cache and the auth slice are always there; each remote injects its
 * own slices with `rootReducer.inject(slice)` when its code loads.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- remotes widen it by declaration merging
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices(baseApi, authSlice).withLazyLoadedSlices<LazyLoadedSlices>();

export function makeStore(preloadedState?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) => getDefault().concat(baseApi.middleware),
  });
}

export type RootState = ReturnType<typeof rootReducer>;
export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAppStore = useStore.withTypes<AppStore>();
