import type { RemoteName, RuntimeConfig } from '@motoparts/state/frame';

/** What the assignment reads and writes of `localStorage`. */
export type CanaryStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The `localStorage` key of a remote's canary draw: `{ url, roll }`. */
export const CANARY_STORAGE_PREFIX = 'motoparts.canary.';

/**
 * Which release of each remote this browser runs, from the config's `canary` entries
 * (`{ dashboard: { url, percent } }`). Each browser draws once per canary a number in [0, 100),
 * kept in `storage` beside the canary's URL, and runs the canary while that number is below its
 * `percent`: the same release on every reload, more browsers (the same ones, plus others) when
 * the percentage grows, none at 0 and all at 100, and a fresh draw when the canary's URL changes
 * (a new release); an unreadable record is drawn again. A browser that keeps nothing (`storage`
 * missing or refusing to store) stays on the stable release: it could not keep to a canary across
 * its reloads.
 *
 * Returns the config with `remotes` naming what this browser runs and `stableRemotes` the stable
 * URL of each remote it runs on its canary (the fallback when the canary does not load); the
 * config as it was when it names no canary.
 *
 * Its source is copied as it is into index.html's inline script (first-screen.tsx), which runs
 * before any bundle, so that the remote entry the page preloads is already the assigned one: it
 * imports nothing at runtime and refers to nothing outside itself.
 */
export function assignCanary(
  config: RuntimeConfig,
  storage: CanaryStorage | undefined,
  random: () => number,
): RuntimeConfig {
  const canary = config.canary;
  if (!canary || !config.remotes || !storage) return config;
  const remotes = { ...config.remotes };
  const stable: Partial<Record<RemoteName, string>> = {};
  for (const name of Object.keys(canary) as RemoteName[]) {
    const release = canary[name];
    if (!release || typeof release.url !== 'string' || !remotes[name] || !(release.percent > 0)) continue;
    const key = 'motoparts.canary.' + name;
    let roll: number | undefined;
    try {
      const kept = JSON.parse(storage.getItem(key) || 'null') as { url?: unknown; roll?: unknown } | null;
      if (kept && kept.url === release.url && typeof kept.roll === 'number') roll = kept.roll;
    } catch {
      roll = undefined;
    }
    if (roll === undefined) {
      roll = random() * 100;
      try {
        storage.setItem(key, JSON.stringify({ url: release.url, roll }));
      } catch {
        continue;
      }
    }
    if (roll < release.percent) {
      stable[name] = remotes[name];
      remotes[name] = release.url;
    }
  }
  return { ...config, remotes, stableRemotes: stable };
}

/**
 * assignCanary's source as the inline script carries it, on one line: its text holds no string
 * or pattern in which runs of whitespace matter.
 */
export const assignCanarySource = (): string => assignCanary.toString().replace(/\s+/g, ' ');
