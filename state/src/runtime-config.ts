/**
 * Runtime configuration read from `/config.json` at start-up, so one build runs in every
 * environment. The shell loads it once and hands it here; remotes read it through `getConfig`.
 */
export interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  appId?: string;
}

export interface RuntimeConfig {
  apiBaseUrl: string;
  remotes: Record<'storefront' | 'auth' | 'dashboard', string>;
  firebase: FirebaseWebConfig;
  /** Set when the Firebase Auth emulator stands in for Firebase (local mode). */
  firebaseAuthEmulatorUrl?: string;
  stripePublishableKey: string;
}

let current: RuntimeConfig | undefined;

export function setConfig(config: RuntimeConfig): void {
  current = config;
}

export function getConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime config not loaded: call setConfig() before rendering');
  return current;
}

/** Loads `/config.json` relative to the page (no-cache on the server side too). */
export async function loadConfig(url = '/config.json'): Promise<RuntimeConfig> {
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`Could not load ${url}: HTTP ${res.status}`);
  const config = (await res.json()) as RuntimeConfig;
  setConfig(config);
  return config;
}
