import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { currentStore } from './store-ready';

/**
 * Gives what renders inside it the page's store. The shell renders its frame without one (so
 * react-redux is not on the home page's first load): each part of a page that reads the store
 * sits in one of these, rendered only after `requireStore()` has resolved.
 */
export function StoreProvider({ children }: { children: ReactNode }) {
  const store = currentStore();
  if (!store) throw new Error('StoreProvider rendered before the store was made (await requireStore())');
  return <Provider store={store}>{children}</Provider>;
}
