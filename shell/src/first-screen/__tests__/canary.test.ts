import type { RuntimeConfig } from '@motoparts/state/frame';
import { assignCanary, assignCanarySource, CANARY_STORAGE_PREFIX, type CanaryStorage } from '../canary';

const STABLE = 'https://cdn.example/dashboard/2.1.0/';
const CANARY = 'https://cdn.example/dashboard/2.2.0/';

const config = (canary?: RuntimeConfig['canary']): RuntimeConfig => ({
  apiBaseUrl: 'https://api.example',
  remotes: {
    storefront: 'https://cdn.example/storefront/3.0.0/',
    auth: 'https://cdn.example/auth/1.4.0/',
    dashboard: STABLE,
  },
  canary,
  firebase: { apiKey: 'k', authDomain: 'a.example', projectId: 'p' },
  stripePublishableKey: 'pk_test',
});

/** A browser's localStorage. */
function memoryStorage(
  entries: Record<string, string> = {},
): CanaryStorage & { entries: Record<string, string> } {
  return {
    entries,
    getItem: (key) => entries[key] ?? null,
    setItem: (key, value) => {
      entries[key] = String(value);
    },
  };
}

const draws = (...values: number[]) => {
  const queue = [...values];
  return () => {
    const next = queue.shift();
    if (next === undefined) throw new Error('drew more often than expected');
    return next;
  };
};

const dashboardOf = (c: RuntimeConfig) => c.remotes.dashboard;

test('without a canary the config is left as it is, and nothing is drawn or stored', () => {
  const storage = memoryStorage();
  const base = config();
  expect(assignCanary(base, storage, draws())).toBe(base);
  expect(storage.entries).toEqual({});
});

test('at 0 % no browser runs the canary; at 100 % every browser does', () => {
  for (const draw of [0, 0.5, 0.999999]) {
    expect(
      dashboardOf(
        assignCanary(config({ dashboard: { url: CANARY, percent: 0 } }), memoryStorage(), () => draw),
      ),
    ).toBe(STABLE);
    expect(
      dashboardOf(
        assignCanary(config({ dashboard: { url: CANARY, percent: 100 } }), memoryStorage(), () => draw),
      ),
    ).toBe(CANARY);
  }
});

test('a browser on the canary keeps the stable URL to fall back to; the other remotes are untouched', () => {
  const assigned = assignCanary(
    config({ dashboard: { url: CANARY, percent: 10 } }),
    memoryStorage(),
    () => 0.05,
  );
  expect(assigned.remotes).toEqual({ ...config().remotes, dashboard: CANARY });
  expect(assigned.stableRemotes).toEqual({ dashboard: STABLE });
  const stayed = assignCanary(
    config({ dashboard: { url: CANARY, percent: 10 } }),
    memoryStorage(),
    () => 0.5,
  );
  expect(stayed.remotes).toEqual(config().remotes);
  expect(stayed.stableRemotes).toEqual({});
  // The canary's share is the draws in [0, percent): 10 % of them, not one more.
  const edge = assignCanary(config({ dashboard: { url: CANARY, percent: 10 } }), memoryStorage(), () => 0.1);
  expect(edge.remotes.dashboard).toBe(STABLE);
});

test('the draw is sticky: later loads keep the first one, whatever they would draw', () => {
  const canary = config({ dashboard: { url: CANARY, percent: 30 } });
  const onCanary = memoryStorage();
  expect(dashboardOf(assignCanary(canary, onCanary, draws(0.1)))).toBe(CANARY);
  const onStable = memoryStorage();
  expect(dashboardOf(assignCanary(canary, onStable, draws(0.9)))).toBe(STABLE);
  for (let reload = 0; reload < 3; reload++) {
    expect(dashboardOf(assignCanary(canary, onCanary, draws()))).toBe(CANARY);
    expect(dashboardOf(assignCanary(canary, onStable, draws()))).toBe(STABLE);
  }
  expect(JSON.parse(onCanary.entries[`${CANARY_STORAGE_PREFIX}dashboard`] ?? '')).toEqual({
    url: CANARY,
    roll: 10,
  });
});

test('a larger percentage keeps the browsers already on the canary and adds others', () => {
  const storage = memoryStorage();
  expect(
    dashboardOf(assignCanary(config({ dashboard: { url: CANARY, percent: 10 } }), storage, draws(0.2))),
  ).toBe(STABLE);
  expect(
    dashboardOf(assignCanary(config({ dashboard: { url: CANARY, percent: 25 } }), storage, draws())),
  ).toBe(CANARY);
  // And the canary removed, or at 0 %, is a rollback for everyone.
  expect(
    dashboardOf(assignCanary(config({ dashboard: { url: CANARY, percent: 0 } }), storage, draws())),
  ).toBe(STABLE);
  expect(dashboardOf(assignCanary(config(), storage, draws()))).toBe(STABLE);
});

test('a new canary release draws again', () => {
  const storage = memoryStorage();
  expect(
    dashboardOf(assignCanary(config({ dashboard: { url: CANARY, percent: 50 } }), storage, draws(0.9))),
  ).toBe(STABLE);
  const next = 'https://cdn.example/dashboard/2.3.0/';
  expect(
    dashboardOf(assignCanary(config({ dashboard: { url: next, percent: 50 } }), storage, draws(0.1))),
  ).toBe(next);
  expect(JSON.parse(storage.entries[`${CANARY_STORAGE_PREFIX}dashboard`] ?? '')).toEqual({
    url: next,
    roll: 10,
  });
});

test('a browser that keeps nothing, or a garbled record, is handled without throwing', () => {
  const canary = config({ dashboard: { url: CANARY, percent: 100 } });
  expect(dashboardOf(assignCanary(canary, undefined, draws()))).toBe(STABLE);
  const refusing: CanaryStorage = {
    getItem: () => null,
    setItem: () => {
      throw new Error('QuotaExceededError');
    },
  };
  expect(dashboardOf(assignCanary(canary, refusing, () => 0))).toBe(STABLE);
  // An unreadable record is drawn again (and kept).
  const garbled = memoryStorage({ [`${CANARY_STORAGE_PREFIX}dashboard`]: '{not json' });
  expect(dashboardOf(assignCanary(canary, garbled, () => 0))).toBe(CANARY);
  expect(JSON.parse(garbled.entries[`${CANARY_STORAGE_PREFIX}dashboard`] ?? '')).toEqual({
    url: CANARY,
    roll: 0,
  });
  // A canary entry without a usable URL or percentage is ignored.
  const broken = config({
    dashboard: { url: 42, percent: 100 } as unknown as { url: string; percent: number },
  });
  expect(dashboardOf(assignCanary(broken, memoryStorage(), () => 0))).toBe(STABLE);
});

test('its source runs on its own, as index.html’s inline script runs it', () => {
  // The page copies the function's text; anything it referred to outside itself would be missing.
  const copied = new Function(`return (${assignCanarySource()})`)() as typeof assignCanary;
  expect(assignCanarySource()).not.toContain('\n');
  const storage = memoryStorage();
  const assigned = copied(config({ dashboard: { url: CANARY, percent: 10 } }), storage, () => 0.01);
  expect(assigned.remotes.dashboard).toBe(CANARY);
  expect(assigned.stableRemotes).toEqual({ dashboard: STABLE });
  expect(Object.keys(storage.entries)).toEqual([`${CANARY_STORAGE_PREFIX}dashboard`]);
});
