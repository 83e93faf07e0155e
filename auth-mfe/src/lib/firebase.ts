import { getApps, initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  indexedDBLocalPersistence,
  initializeAuth,
  type Auth,
} from 'firebase/auth';
import { getConfig } from '@motoparts/state';

let auth: Auth | undefined;

/**
 * The one Firebase Auth instance, created on first use from the runtime config. `initializeAuth`
 * (not `getAuth`) leaves the popup machinery out until the Google popup actually needs it.
 */
export function firebaseAuth(): Auth {
  if (auth) return auth;
  const config = getConfig();
  const app = getApps()[0] ?? initializeApp(config.firebase);
  auth = initializeAuth(app, { persistence: [indexedDBLocalPersistence, browserLocalPersistence] });
  if (config.firebaseAuthEmulatorUrl) {
    connectAuthEmulator(auth, config.firebaseAuthEmulatorUrl, { disableWarnings: true });
  }
  return auth;
}

/** True when the Firebase Auth emulator stands in for Firebase (local mode, docs/architecture.md). */
export function usesEmulator(): boolean {
  return Boolean(getConfig().firebaseAuthEmulatorUrl);
}
