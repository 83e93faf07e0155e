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

/** The remotes the shell loads, by the names the config, the shell and the remotes use. */
export type RemoteName = 'storefront' | 'auth' | 'dashboard';

/** A release of one remote that a share of browsers runs instead of the one `remotes` names. */
export interface CanaryRelease {
  /** Where the release is served, as in `remotes` (`https://cdn…/dashboard/2.2.0/`). */
  url: string;
  /** The share of browsers that run it, 0–100. */
  percent: number;
}

export interface RuntimeConfig {
  apiBaseUrl: string;
  remotes: Record<RemoteName, string>;
  /** Canary releases by remote (shell/src/first-screen/canary.ts assigns browsers to them). */
  canary?: Partial<Record<RemoteName, CanaryRelease>>;
  /**
   * Never in config.json: set by the page for the remotes this browser runs on their canary
   * (`remotes` then names the canary), each remote's stable URL, which it falls back to if the
   * canary does not load.
   */
  stableRemotes?: Partial<Record<RemoteName, string>>;
  firebase: FirebaseWebConfig;
  /** Set when the Firebase Auth emulator stands in for Firebase (local mode). */
  firebaseAuthEmulatorUrl?: string;
  stripePublishableKey: string;
  /**
   * The shell's public URL. Root-relative catalogue images (`/images/…`) and the site stylesheet
   * (`site.css`: tokens, .btn, .card …) live there; a remote running standalone on its own origin
   * takes them from it. Inside the shell it is the page's own origin.
   */
  shellUrl?: string;
}

let current: RuntimeConfig | undefined;

export function setConfig(config: RuntimeConfig): void {
  current = config;
}

export function getConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime config not loaded: call setConfig() before rendering');
  return current;
}

/**
 * The name under which the shell's inline first-screen script leaves the site's config, before
 * any bundle runs: the copy the server included in the page, or its request for `/config.json`
 * where there is none (shell/src/first-screen/first-screen.tsx).
 */
export const EARLY_CONFIG_KEY = '__motopartsConfig' as const;

/**
 * The name under which the same inline script leaves its canary assignment, `(config) => config`
 * (shell/src/first-screen/canary.ts), for a config fetched here rather than by the page: the code
 * lives in the page, not in the bundles, which the home page's budget leaves no room in.
 */
export const CANARY_KEY = '__mpCanary' as const;

async function fetchConfig(url: string): Promise<RuntimeConfig> {
  const res = await fetch(url, { cache: 'no-cache' });
  if (!res.ok) throw new Error(`Could not load ${url}: HTTP ${res.status}`);
  return (await res.json()) as RuntimeConfig;
}

/**
 * Loads `/config.json` relative to the page (no-cache on the server side too), taking over what
 * the page's inline script left, if it did: the page's own copy or the request it already started
 * (asking again if that failed).
 */
export async function loadConfig(url = '/config.json'): Promise<RuntimeConfig> {
  const holder = globalThis as {
    __motopartsConfig?: Promise<RuntimeConfig>;
    __mpCanary?: (config: RuntimeConfig) => RuntimeConfig;
  };
  const early = url === '/config.json' ? holder.__motopartsConfig : undefined;
  // Taken once: a later load (none today) asks the server again.
  holder.__motopartsConfig = undefined;
  const assign = holder.__mpCanary ?? ((c: RuntimeConfig) => c);
  // The page's copy is assigned already (by the page itself).
  const config = (early && (await early.catch(() => undefined))) || assign(await fetchConfig(url));
  setConfig(config);
  return config;
}

/** Photos the API hosts (uploads and re-hosted outside photos) live under this path of the API. */
export const HOSTED_PHOTOS_PATH = '/uploads/';

/**
 * Where a root-relative asset loads from on this page: a photo the API hosts (`/uploads/…`) from
 * the API's origin; one of the shell's (a part's `/images/…` photo) unchanged inside the shell,
 * from the shell's URL on a remote's standalone page.
 */
export function assetUrl(src: string): string {
  if (src.startsWith(HOSTED_PHOTOS_PATH) && current?.apiBaseUrl) {
    // Joined, not resolved: an API served under a path (https://shop.example/api) keeps it.
    return current.apiBaseUrl.replace(/\/?$/, '') + src;
  }
  const base = current?.shellUrl;
  if (!base || !src.startsWith('/') || src.startsWith('//')) return src;
  const url = new URL(src, base);
  return typeof location !== 'undefined' && url.origin === location.origin ? src : url.toString();
}

/** The small (400 px) version of a photo the API hosts; any other address as it is. */
export function thumbnailUrl(src: string): string {
  return /^\/uploads\/[0-9a-f]{32}\.webp$/.test(src) ? src.replace(/\.webp$/, '-400.webp') : src;
}
