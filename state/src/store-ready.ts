import { useSyncExternalStore } from 'react';
import { INITIAL_SESSION, startingSession, type SessionState } from './session/state';
import type { AppStore } from './store';

/**
 * When the page's Redux store is there, and the session before it is. The shell makes its store
 * after the home page's first screen is interactive (Redux Toolkit, RTK Query and react-redux are
 * a fifth of the JavaScript, and that screen reads nothing but the session): code that needs the
 * store asks through here, and the host registers how it loads. A standalone remote makes its
 * store before its first render and hands it over at once (`provideStore`).
 */
let loader: (() => Promise<AppStore>) | undefined;
let ready: Promise<AppStore> | undefined;
let current: AppStore | undefined;
let early: SessionState | undefined;
const listeners = new Set<() => void>();

function attach(store: AppStore): AppStore {
  current = store;
  store.subscribe(() => listeners.forEach((l) => l()));
  listeners.forEach((l) => l());
  return store;
}

export function setStoreLoader(load: () => Promise<AppStore>): void {
  loader = load;
}

/** The store is already made (a remote's standalone page). */
export function provideStore(store: AppStore): void {
  ready = Promise.resolve(attach(store));
}

/** Starts loading the store (once) and resolves with it. */
export function requireStore(): Promise<AppStore> {
  if (!ready) {
    if (!loader) return Promise.reject(new Error('No host makes a store on this page'));
    ready = loader().then(attach);
  }
  return ready;
}

/** The store if it has been made; `requireStore` resolves only after this is set. */
export function currentStore(): AppStore | undefined {
  return current;
}

function sessionNow(): SessionState {
  if (current) return current.getState().session;
  early ??= startingSession();
  return early;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Who is signed in, for the page frame (the top bar): from the store once it is there, and
 * before that as the store will start (`startingSession`, the stored session). Rendered at build
 * time, the frame shows the start-up state (`loading`).
 */
export function useSession(): SessionState {
  return useSyncExternalStore(subscribe, sessionNow, () => INITIAL_SESSION);
}
